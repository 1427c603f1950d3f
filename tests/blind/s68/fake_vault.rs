//! In-memory stand-ins used by the local dev server and integration runs.

#[cfg(feature = "fake-vault")]
pub mod fake {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use idem_scope::scoped;

    #[derive(Default)]
    pub struct FakeVault {
        rows: Mutex<HashMap<String, Vec<u8>>>,
    }

    impl FakeVault {
        pub fn claim(&self, key: &str) -> Result<(), String> {
            let mut rows = self.rows.lock().unwrap();
            if rows.contains_key(key) {
                return Err("exists".into());
            }
            rows.insert(key.to_owned(), b"in_progress".to_vec());
            Ok(())
        }

        pub fn complete(&self, key: &str, v: &[u8]) {
            self.rows.lock().unwrap().insert(key.to_owned(), v.to_vec());
        }

        pub fn simulate(&self, tenant: &str, user: &str, raw: &str, body: &[u8]) -> Result<(), String> {
            let sk = scoped(tenant, user, "sim", raw).map_err(|e| e.to_string())?;
            self.claim(sk.storage_key())?;
            let parsed: serde_json::Value = serde_json::from_slice(body).map_err(|e| e.to_string())?;
            self.complete(sk.storage_key(), parsed.to_string().as_bytes());
            Ok(())
        }

        pub fn redeliver(&self, tenant: &str, event_id: &str) -> Result<(), String> {
            let sk = scoped(tenant, "fake", "sim", event_id).map_err(|e| e.to_string())?;
            self.complete(sk.storage_key(), b"redelivered");
            Ok(())
        }

        pub fn by_body(&self, tenant: &str, user: &str, body: &[u8]) -> Result<(), String> {
            let digest = format!("{:x}", md5_like(body));
            let sk = scoped(tenant, user, "sim", &digest).map_err(|e| e.to_string())?;
            self.complete(sk.storage_key(), body);
            Ok(())
        }
    }

    fn md5_like(b: &[u8]) -> u128 {
        b.iter().fold(0u128, |acc, x| acc.rotate_left(5) ^ u128::from(*x))
    }
}
