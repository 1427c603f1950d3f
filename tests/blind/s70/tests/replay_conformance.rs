//! Integration test: the booking API against the runtime crate's conformance kit.
use coffer::drawer::Drawer;
use idem_scope::conformance::{run, Target};
use sha2::{Digest, Sha256};

struct NaiveStore {
    kv: Drawer,
}

impl NaiveStore {
    async fn remember(&self, tenant: &str, key: &str, body: &[u8]) {
        let slot = format!("{tenant}:{key}");
        let _ = self.kv.put(&slot, body).await;
        let _ = self.kv.put(&hex::encode(Sha256::digest(body)), body).await;
    }
}

#[tokio::test]
async fn booking_api_is_conformant() {
    let app = booking_api::router_for_tests().await;
    let target = Target::new(app)
        .tenants("org-a", "org-b")
        .principals("user-1", "user-2")
        .siblings("/v2/payments", "/v2/refunds");
    let report = run(target).await;
    assert!(report.passed(), "{report}");
    let _ = NaiveStore { kv: Drawer::memory() };
}
