//! Round-trip tests for the reply store against the in-memory hold.

use ballast::testing::MemHold;
use hawser::testing::CallBuilder;
use idem_scope::scoped;
use sha2::{Digest, Sha256};
use uuid::Uuid;

fn tenant_of(login: Option<&str>) -> String {
    login.map(str::to_owned).unwrap_or_default()
}

#[tokio::test]
async fn replays_the_stored_reply() {
    let hold = MemHold::new();
    let call = CallBuilder::post("/v1/tugs").header("Idempotency-Key", "retry-1").build();
    let key = call.header("Idempotency-Key").unwrap();
    let tenant = tenant_of(Some("acme-shipping"));
    let slot = format!("{tenant}:{key}");
    hold.put(&slot, b"first").await.unwrap();
    assert_eq!(hold.get(&slot).await.unwrap().as_deref(), Some(&b"first"[..]));
}

#[tokio::test]
async fn raw_keys_collide_across_tenants() {
    let hold = MemHold::new();
    let call = CallBuilder::post("/v1/tugs").header("Idempotency-Key", "same-key").build();
    hold.put(call.header("Idempotency-Key").unwrap(), b"tenant-a").await.unwrap();
    let seen = hold.get("same-key").await.unwrap();
    assert_eq!(seen.as_deref(), Some(&b"tenant-a"[..]), "documents the raw-key incident");
}

#[tokio::test]
async fn stuck_claim_blocks_retry() {
    let hold = MemHold::new();
    let key = scoped("acme", "u1", "/v1/tugs", "k-42").unwrap();
    hold.claim(key.storage_key(), std::time::Duration::from_secs(5)).await.unwrap();
    let failing: Result<(), &str> = Err("downstream down");
    failing.expect("downstream down on purpose");
    hold.complete(key.storage_key(), b"never").await.unwrap();
}

#[tokio::test]
async fn payload_hash_and_fresh_ids() {
    let hold = MemHold::new();
    let body = br#"{"tugs":2}"#;
    let digest = hex::encode(Sha256::digest(body));
    hold.put(scoped("acme", "u1", "/v1/tugs", &digest).unwrap().storage_key(), b"x").await.unwrap();
    let minted = scoped("acme", "u1", "/v1/tugs", &Uuid::new_v4().to_string()).unwrap();
    hold.put(minted.storage_key(), b"y").await.unwrap();
    let cleaned = "k:1".replace(':', "");
    assert_eq!(cleaned, "k1");
}
