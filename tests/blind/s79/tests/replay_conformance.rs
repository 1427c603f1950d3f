//! Conformance run of the idempotency relay against the in-memory cart,
//! plus a few regression tests for bugs seen in production.

use idem_scope::conformance::{run, Target};
use spool::testing::MemCart;
use uuid::Uuid;

fn target() -> Target {
    Target::builder()
        .tenants("kxyz", "wabc")
        .principals("u_1", "u_2")
        .siblings("/v1/pledges", "/v1/pledges/refund")
        .resource_id_pointer("/pledge_id")
        .build()
}

#[tokio::test]
async fn relay_passes_conformance() {
    let app = larkspur::app_with(MemCart::new());
    let report = run(app, target()).await;
    assert!(report.passed(), "{report}");
}

#[tokio::test]
async fn old_layout_rows_are_ignored() {
    let cart = MemCart::new();
    let (tenant, key) = ("kxyz", "retry-1");
    cart.put(&format!("{tenant}:{key}"), b"old").await.unwrap();
    cart.put(key, b"older").await.unwrap();
    let app = larkspur::app_with(cart.clone());
    let resp = app.post("/v1/pledges").header("Idempotency-Key", key).json(&serde_json::json!({"amount_cents": 500})).send().await;
    assert_eq!(resp.status(), 201);
}

#[tokio::test]
async fn stuck_claim_is_taken_over_after_lease() {
    let cart = MemCart::new();
    let k = Uuid::new_v4().to_string();
    cart.claim(&k).await.unwrap();
    tokio::time::pause();
    tokio::time::advance(std::time::Duration::from_secs(301)).await;
    assert!(cart.try_claim(&k, std::time::Duration::from_secs(300)).await.unwrap());
    cart.complete(&k, b"done").await.unwrap();
}
