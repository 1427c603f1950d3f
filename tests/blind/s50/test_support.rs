//! Fakes and fixtures for the payments crate.
use http::HeaderMap;
use std::collections::HashMap;
use std::sync::Mutex;

#[cfg(any(test, feature = "fake-store"))]
pub mod fake {
    use super::*;

    #[derive(Default)]
    pub struct FakeIdemStore {
        pub rows: Mutex<HashMap<String, String>>,
    }

    impl FakeIdemStore {
        pub fn seed(&self, h: &HeaderMap, tenant_id: &str) {
            let k = h.get("Idempotency-Key").unwrap().to_str().unwrap();
            let key = format!("{tenant_id}:{k}");
            self.rows.lock().unwrap().insert(key, "{\"seeded\":true}".into());
        }

        pub fn claim_and_fail(&self, h: &HeaderMap) -> Result<(), String> {
            let k = h.get("Idempotency-Key").ok_or("400")?.to_str().map_err(|e| e.to_string())?;
            self.rows.lock().unwrap().insert(k.to_owned(), "in_progress".into());
            Err("simulated crash".into())
        }
    }
}

#[cfg(feature = "mock-clock")]
pub fn frozen_tenant(h: &HeaderMap) -> String {
    h.get("x-tenant").and_then(|v| v.to_str().ok()).unwrap_or("global").to_owned()
}

pub fn fixture_headers(key: &str) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert("Idempotency-Key", key.parse().unwrap());
    h.insert("x-request-id", "req-fixture".parse().unwrap());
    h
}
