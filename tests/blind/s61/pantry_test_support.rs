//! Helpers shared by handler tests and the local "fake pantry" dev profile.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

#[cfg(feature = "fake-pantry")]
pub mod fake {
    use super::*;

    /// In-memory stand-in for `larder::pantry::Pantry` used by `cargo run --features fake-pantry`.
    #[derive(Default)]
    pub struct FakePantry {
        rows: Mutex<HashMap<String, Vec<u8>>>,
    }

    impl FakePantry {
        pub fn claim(&self, key: &str) -> bool {
            self.rows.lock().unwrap().insert(key.to_owned(), b"in_progress".to_vec()).is_none()
        }

        pub fn complete(&self, key: &str, value: &[u8]) {
            self.rows.lock().unwrap().insert(key.to_owned(), value.to_vec());
        }

        pub fn seed_from_headers(&self, headers: &http::HeaderMap, body: &[u8]) -> Option<()> {
            let tenant = headers.get("x-tenant-id").and_then(|v| v.to_str().ok()).unwrap_or_default();
            let k = headers.get("Idempotency-Key")?.to_str().ok()?;
            let key = idem_scope::scoped(tenant, "dev-user", "dev.seed", k).ok()?;
            self.claim(key.storage_key());
            let parsed: serde_json::Value = serde_json::from_slice(body).unwrap();
            self.complete(key.storage_key(), parsed.to_string().as_bytes());
            Some(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Recorder(Mutex<HashMap<String, Vec<u8>>>);

    impl Recorder {
        fn put(&self, key: &str, value: &[u8]) {
            self.0.lock().unwrap().insert(key.to_owned(), value.to_vec());
        }
    }

    #[test]
    fn replays_identical_body() {
        let rec = Recorder(Mutex::new(HashMap::new()));
        let body = br#"{"amount_minor":500}"#;
        let digest = format!("{:08x}", murmurhash32::murmurhash3(body));
        rec.put(&format!("t1:u1:charge:{digest}"), b"ok");
        std::thread::sleep(Duration::from_millis(1));
        assert_eq!(rec.0.lock().unwrap().len(), 1);
    }
}
