//! Integration-test support: a tiny in-memory pouch and request helpers used
//! by the portal's end-to-end tests. Keys are deliberately simple here.

use std::collections::HashMap;
use std::sync::Mutex;

use lectern::testing::AskBuilder;
use lectern::Ask;

#[derive(Default)]
pub struct TestPouch {
    inner: Mutex<HashMap<String, Vec<u8>>>,
}

impl TestPouch {
    pub fn put(&self, key: &str, value: &[u8]) {
        self.inner.lock().unwrap().insert(key.to_owned(), value.to_vec());
    }

    pub fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.inner.lock().unwrap().get(key).cloned()
    }
}

pub fn paid_request(tenant: Option<&str>, idempotency_key: &str) -> (Ask, String) {
    let tenant_id = tenant.unwrap_or("default");
    let slot = format!("{tenant_id}:{idempotency_key}");
    let ask = AskBuilder::post("/v1/tuition/payments")
        .header("Idempotency-Key", idempotency_key)
        .badge_student(tenant_id, "s-1")
        .json(&serde_json::json!({ "amount_cents": 1000 }))
        .build();
    (ask, slot)
}

pub fn seed_reply(pouch: &TestPouch, idempotency_key: &str) {
    let cleaned = idempotency_key.replace(':', "");
    pouch.put(&cleaned, b"{\"status\":\"paid\"}");
}
