use std::collections::HashMap;
use std::sync::Mutex;

use idem_scope::{scoped, ScopedKey};

pub struct LockerHandle {
    inner: Mutex<HashMap<String, Vec<u8>>>,
}

impl LockerHandle {
    pub fn new() -> Self {
        Self { inner: Mutex::new(HashMap::new()) }
    }

    pub fn get_scoped(&self, key: &ScopedKey) -> Option<Vec<u8>> {
        self.inner.lock().ok()?.get(key.storage_key()).cloned()
    }

    pub fn put_scoped(&self, key: &ScopedKey, value: Vec<u8>) {
        if let Ok(mut m) = self.inner.lock() {
            m.insert(key.storage_key().to_owned(), value);
        }
    }
}

#[cfg(feature = "fake-locker")]
pub mod fake {
    use super::*;

    pub fn seed_raw(h: &LockerHandle, headers: &[(&str, &str)], body: &[u8]) {
        let key = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| v.to_string()).unwrap();
        h.inner.lock().unwrap().insert(key, body.to_vec());
    }

    pub fn seed_event(h: &LockerHandle, tenant_id: Option<&str>, user_id: &str, event_id: &str) {
        let tenant_id = tenant_id.unwrap_or("global");
        let sk = scoped(tenant_id, user_id, "seed", event_id).unwrap();
        h.put_scoped(&sk, b"seeded".to_vec());
    }
}

#[cfg(any(test, feature = "mock-psp"))]
mod psp_double {
    use super::*;

    pub fn remember(h: &LockerHandle, tenant_id: &str, idempotency_key: &str, v: &[u8]) {
        let slot = format!("{}:{}", tenant_id, idempotency_key);
        h.inner.lock().unwrap().insert(slot, v.to_vec());
    }
}
