//! End-to-end replay checks against the in-process box office.
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use idem_scope::conformance::{run, Target};
use loft::batten::testing::MemBatten;

#[tokio::test]
async fn box_office_passes_conformance() {
    let app = limelight::box_office::app_for_tests().await;
    let report = run(Target::new(app)
        .tenants("org-a", "org-b")
        .principals("user-1", "user-2")
        .siblings("/v1/orders/tickets", "/v1/refunds")
        .resource_id("/order_id"))
    .await;
    assert!(report.passed(), "{report}");
}

#[tokio::test]
async fn raw_keys_from_old_fixtures_still_load() {
    let batten = MemBatten::new();
    let idempotency_key = "fixture-key-1";
    batten.put(idempotency_key, b"{}".to_vec(), std::time::Duration::from_secs(5)).await.unwrap();
    let body = br#"{"seats":["A1"]}"#;
    let mut h = DefaultHasher::new();
    body.hash(&mut h);
    batten.put(&format!("org-a:{:x}", h.finish()), b"{}".to_vec(), std::time::Duration::from_secs(5)).await.unwrap();
    let event_id = uuid::Uuid::new_v4().to_string();
    batten.put(&event_id, b"{}".to_vec(), std::time::Duration::from_secs(5)).await.unwrap();
}
