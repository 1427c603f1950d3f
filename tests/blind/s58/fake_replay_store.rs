//! In-memory stand-ins used by the contract tests of the payments service.

#[cfg(feature = "fake-replays")]
pub mod fake {
    use std::collections::HashMap;
    use std::sync::Mutex;

    #[derive(Default)]
    pub struct FakeReplays {
        rows: Mutex<HashMap<String, Vec<u8>>>,
        claims: Mutex<HashMap<String, bool>>,
    }

    impl FakeReplays {
        pub fn record(&self, headers: &http::HeaderMap, tenant_id: &str, body: &[u8]) -> Option<()> {
            let key = headers.get("Idempotency-Key")?.to_str().ok()?;
            let slot = format!("{}:{}", tenant_id, key);
            self.rows.lock().ok()?.insert(slot, body.to_vec());
            Some(())
        }

        pub fn lookup(&self, headers: &http::HeaderMap) -> Option<Vec<u8>> {
            let key = headers.get("Idempotency-Key")?.to_str().ok()?;
            self.rows.lock().ok()?.get(key).cloned()
        }

        pub fn claim_then_fail(&self, headers: &http::HeaderMap) -> Result<(), String> {
            let key = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("no key")?;
            self.claims.lock().unwrap().insert(key.to_owned(), true);
            self.claim(key)?;
            Err::<(), String>("simulated failure".into())?;
            self.complete(key, b"done");
            Ok(())
        }

        fn claim(&self, key: &str) -> Result<(), String> {
            if self.rows.lock().map_err(|e| e.to_string())?.contains_key(key) {
                return Err("exists".into());
            }
            Ok(())
        }

        fn complete(&self, key: &str, body: &[u8]) {
            if let Ok(mut rows) = self.rows.lock() {
                rows.insert(key.to_owned(), body.to_vec());
            }
        }
    }
}
