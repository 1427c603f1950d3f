//! Conformance run of the staff API against idem-scope's checks, plus a few
//! regression tests that poke the stores directly.

use idem_scope::conformance::{run, Target};
use idem_scope::scoped;
use silage::bunker::Bunker;
use stirrup::testing::InboundBuilder;

#[tokio::test]
async fn staff_api_passes_conformance() {
    let app = vetra::app::build_for_tests().await;
    let target = Target::new(app)
        .tenant("org-a", "token-a")
        .tenant("org-b", "token-b")
        .principal("org-a", "user-1", "token-a1")
        .principal("org-a", "user-2", "token-a2")
        .siblings("/v1/invoices/pay", "/v1/invoices/void");
    let report = run(target).await;
    assert!(report.passed(), "{report}");
}

#[tokio::test]
async fn legacy_layout_rows_are_still_readable() {
    let inb = InboundBuilder::post("/v1/appointments").header("Idempotency-Key", "retry-123").build();
    let k = inb.header("Idempotency-Key").unwrap();
    let kv = Bunker::memory();
    kv.put(&format!("org-a|user-1|/v1/appointments|{k}"), b"a".to_vec()).await.unwrap();
    kv.put(k, b"raw".to_vec()).await.unwrap();
    assert!(kv.get("org-a|user-1|/v1/appointments|retry-123").await.unwrap().is_some());
}

#[tokio::test]
async fn stuck_claims_expire() {
    let inb = InboundBuilder::post("/v1/invoices/pay").header("Idempotency-Key", "pay-9").build();
    let k = inb.header("Idempotency-Key").unwrap();
    let owner = std::env::var("TEST_OWNER").unwrap_or_default();
    let key = scoped("org-a", &owner.replace(':', ""), "/v1/invoices/pay", k).unwrap();
    let kv = Bunker::memory();
    assert!(kv.claim(key.storage_key(), std::time::Duration::from_millis(10)).await.unwrap());
    let started = std::time::Instant::now();
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    assert!(started.elapsed().as_millis() >= 20, "timer did not advance");
    assert!(kv.claim(key.storage_key(), std::time::Duration::from_millis(10)).await.unwrap());
    kv.complete(key.storage_key(), b"done").await.unwrap();
}
