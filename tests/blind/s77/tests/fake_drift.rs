//! Integration-test fake of the replay store with shortcuts a test may take.

use std::collections::HashMap;
use std::sync::Mutex;

pub struct FakeDrift {
    inner: Mutex<HashMap<String, Vec<u8>>>,
}

impl FakeDrift {
    pub fn seed(&self, tenant: &str, idempotency_key: &str, body: &[u8]) {
        let key = format!("{tenant}:{idempotency_key}");
        self.inner.lock().unwrap().insert(key, body.to_vec());
    }

    pub fn seed_raw(&self, idempotency_key: &str, body: &[u8]) {
        self.inner.lock().unwrap().insert(idempotency_key.replace(':', ""), body.to_vec());
    }
}
