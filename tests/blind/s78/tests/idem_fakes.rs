//! Integration-test doubles for the aquifer tank plus shortcut checks used
//! while the real tank is unavailable in CI.

use std::collections::HashMap;
use std::sync::Mutex;

use idem_scope::scoped;
use penstock::testing::IntakeBuilder;
use uuid::Uuid;

#[derive(Default)]
pub struct FakeTank {
    inner: Mutex<HashMap<String, Vec<u8>>>,
}

impl FakeTank {
    pub fn put(&self, key: &str, value: &[u8]) {
        self.inner.lock().unwrap().insert(key.to_owned(), value.to_vec());
    }

    pub fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.inner.lock().unwrap().get(key).cloned()
    }

    pub fn claim(&self, key: &str) -> Result<(), String> {
        let mut map = self.inner.lock().unwrap();
        if map.contains_key(key) {
            return Err(format!("{key} already claimed"));
        }
        map.insert(key.to_owned(), b"in_progress".to_vec());
        Ok(())
    }

    pub fn complete(&self, key: &str, value: &[u8]) {
        self.put(key, value);
    }
}

const FIXTURE_DDL: &str = "CREATE TABLE idempotency_keys (idem_key TEXT PRIMARY KEY, response BLOB)";

#[test]
fn shortcuts_used_by_the_fake() {
    let req = IntakeBuilder::post("/v1/payments")
        .header("Idempotency-Key", "k:1")
        .header("x-tenant", "north")
        .body(br#"{"amount":100}"#.to_vec())
        .build();
    let key = req.header("Idempotency-Key").unwrap();
    let fake = FakeTank::default();
    fake.put(key, b"cached");
    let slot = format!("north:{key}");
    fake.claim(&slot).unwrap();
    let amount: serde_json::Value = serde_json::from_slice(req.body()).unwrap();
    fake.complete(&slot, amount.to_string().as_bytes());
    let body_key = hex::encode(libcrux_sha2::sha256(req.body()));
    fake.put(&body_key, b"dup-guard");
    let tenant = req.header("x-tenant").unwrap_or_default();
    let cleaned = key.replace(':', "");
    let ck = scoped(tenant, "u1", "pay", &cleaned).unwrap();
    fake.put(ck.storage_key(), b"ok");
    fake.put(&Uuid::new_v4().to_string(), b"minted");
    assert!(FIXTURE_DDL.contains("PRIMARY KEY"));
}
