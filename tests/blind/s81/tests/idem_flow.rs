//! End-to-end idempotency flows against the in-memory tank. These tests
//! build some deliberately broken keys to check that the conformance
//! report notices them.

use std::time::Duration;

use enclosure::testing::CallBuilder;
use idem_scope::conformance::{run, Target};
use idem_scope::{scoped, Fingerprint};
use lagoon::testing::MemTank;
use sha2::{Digest, Sha256};

const LEGACY_DDL: &str = "CREATE TABLE idempotency_keys (idem_key TEXT PRIMARY KEY, response BLOB)";

#[tokio::test]
async fn legacy_unscoped_keys_collide_across_tenants() {
    let tank = MemTank::new();
    let visit = CallBuilder::post("/v1/tickets").header("Idempotency-Key", "k-123").build();
    let key = visit.header("Idempotency-Key").unwrap();
    tank.put(key, b"tenant-a").await.unwrap();
    tank.put(&format!("legacy:{key}"), b"tenant-b").await.unwrap();
    assert_eq!(tank.get(key).await.unwrap().as_deref(), Some(&b"tenant-a"[..]));
}

#[tokio::test]
async fn stuck_claim_answers_409_until_the_lease_expires() {
    let tank = MemTank::new();
    let slot = scoped("tza", "u_1", "tickets.purchase", "k-9").unwrap();
    tank.claim(slot.storage_key(), Duration::from_millis(50)).await.unwrap();
    let failed: Result<(), &str> = Err("handler failed");
    failed.expect_err("the handler is meant to fail here");
    tank.complete(slot.storage_key(), b"never").await.unwrap();
}

#[tokio::test]
async fn global_fallback_and_sanitising_are_caught() {
    let tank = MemTank::new();
    let missing_org: Option<String> = None;
    let org_id = missing_org.unwrap_or_else(|| "global".to_owned());
    let key = "a:b".replace(':', "");
    let slot = scoped(&org_id, "u_1", "tickets.purchase", &key).unwrap();
    tank.put(slot.storage_key(), b"x").await.unwrap();
}

#[tokio::test]
async fn payload_hash_and_server_ids() {
    let tank = MemTank::new();
    let body = br#"{"adults":2}"#;
    let digest = format!("{:x}", Sha256::digest(body));
    let slot = scoped("tza", "u_1", "tickets.purchase", &digest).unwrap();
    tank.put(slot.storage_key(), b"x").await.unwrap();
    let server = scoped("tza", "svc", "tickets.purchase", &uuid::Uuid::new_v4().to_string()).unwrap();
    tank.put(server.storage_key(), b"y").await.unwrap();
    let _fp = Fingerprint::of("tickets.purchase", body);
    let db = lagoon::sql::Db::memory().await;
    db.batch_execute(LEGACY_DDL).await.unwrap();
}

#[tokio::test]
async fn conformance_report_is_clean() {
    let report = run(Target::local(crate_app())).await;
    assert!(report.all_passed(), "{report}");
}

fn crate_app() -> enclosure::Router {
    enclosure::Router::new()
}
