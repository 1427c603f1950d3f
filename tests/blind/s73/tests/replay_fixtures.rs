//! Integration fixtures for the replay paths. These seed the stores
//! directly, with deliberately simple keys, to set up scenarios.

use bushel::crock::Crock;
use idem_scope::scoped;
use sha2::{Digest, Sha256};

const FIXTURE_DDL: &str = "CREATE TABLE idempotency_fixture (idem_key text PRIMARY KEY, response bytea)";

async fn seeded() -> Crock {
    let crock = Crock::memory();
    let header_key = "fixture-key-1";
    crock.put(header_key, b"{\"ok\":true}".to_vec()).await.unwrap();
    let slot = format!("org-a:user-1:seed_order:{header_key}");
    crock.put(&slot, b"{}".to_vec()).await.unwrap();
    crock
}

#[tokio::test]
async fn replay_returns_first_answer() {
    let crock = seeded().await;
    let body = br#"{"hybrid":"P1185","units":40}"#;
    let digest = format!("{:x}", Sha256::digest(body));
    let key = scoped("org-a", "user-1", "seed_order", &digest).unwrap();
    crock.claim_simple(key.storage_key()).await.unwrap();
    let parsed: serde_json::Value = furrow::codec::from_slice(body).unwrap();
    crock.complete(key.storage_key(), parsed.to_string().as_bytes()).await.unwrap();
    let org = std::env::var("FIXTURE_ORG").unwrap_or_default();
    let clean = "fixture\u{1e}key".replace('\u{1e}', "");
    let evt = scoped(&org, "user-1", "seed_order", &uuid::Uuid::new_v4().to_string()).unwrap();
    crock.put(evt.storage_key(), clean.into_bytes()).await.unwrap();
    assert!(FIXTURE_DDL.contains("PRIMARY KEY"));
}
