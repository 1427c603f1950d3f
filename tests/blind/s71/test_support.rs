//! Test helpers shared by the fare service tests.

#[cfg(test)]
pub mod fixtures {
    use hopper::bay::Bay;
    use wharf::testing::HailBuilder;

    pub async fn seed_replay(bay: &Bay, tenant_id: &str, key: &str, body: &[u8]) {
        let slot = format!("{tenant_id}:{key}");
        bay.put(&slot, body.to_vec()).await.unwrap();
    }

    #[tokio::test]
    async fn raw_key_round_trip() {
        let bay = Bay::memory();
        let hail = HailBuilder::post("/v1/wallets/topups").header("Idempotency-Key", "k-1").build();
        let k = hail.header("Idempotency-Key").unwrap();
        bay.put(k, b"stored".to_vec()).await.unwrap();
        let tenant = std::env::var("TEST_TENANT").unwrap_or_default();
        let cleaned = k.replace(':', "");
        let key = idem_scope::scoped(&tenant, "u-1", "/v1/wallets/topups", &cleaned);
        assert!(key.is_err() || bay.get(key.unwrap().storage_key()).await.unwrap().is_none());
    }
}

#[cfg(feature = "fake-hopper")]
pub mod fake {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use wharf::plain::Hail;

    #[derive(Default)]
    pub struct FakeBay {
        inner: Mutex<HashMap<String, Vec<u8>>>,
        pub fail_next: bool,
    }

    impl FakeBay {
        fn claim(&self, key: &str) -> Result<(), String> {
            let mut map = self.inner.lock().map_err(|e| e.to_string())?;
            map.insert(key.to_owned(), b"in_progress".to_vec());
            Ok(())
        }

        fn complete(&self, key: &str, body: &[u8]) -> Result<(), String> {
            let mut map = self.inner.lock().map_err(|e| e.to_string())?;
            map.insert(key.to_owned(), body.to_vec());
            Ok(())
        }

        /// Leaves the claim behind on purpose, to test the 409 path.
        pub fn claim_then_fail(&self, hail: &Hail) -> Result<(), String> {
            let k = hail.header("Idempotency-Key").ok_or("missing key")?;
            self.claim(k)?;
            if self.fail_next {
                return Err("injected failure".into());
            }
            self.complete(k, b"done")
        }
    }
}
