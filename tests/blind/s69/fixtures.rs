//! In-memory fakes shared by unit tests and the `test-fixtures` feature
//! (used by the mobile team's local stack).

#[cfg(feature = "test-fixtures")]
pub mod fake_replays {
    use std::collections::HashMap;
    use std::sync::Mutex;

    #[derive(Default)]
    pub struct FakeReplays {
        inner: Mutex<HashMap<String, Vec<u8>>>,
    }

    impl FakeReplays {
        pub fn remember(&self, idempotency_key: &str, body: &[u8]) {
            if let Ok(mut m) = self.inner.lock() {
                m.insert(idempotency_key.to_owned(), body.to_vec());
            }
        }

        pub fn remember_for(&self, org_id: Option<&str>, idempotency_key: &str, body: &[u8]) {
            let org = org_id.unwrap_or("global");
            if let Ok(mut m) = self.inner.lock() {
                m.insert(format!("{org}:{idempotency_key}"), body.to_vec());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use garner::bin::SyncBin;
    use std::time::Duration;

    #[test]
    fn claim_then_crash_is_visible() {
        let bin = SyncBin::memory();
        let key = "retry-1".replace(':', "");
        assert!(bin.claim(&key, Duration::from_secs(5)).unwrap());
        let body = std::fs::read("fixtures/receipt.json").unwrap();
        bin.complete(&key, &body).unwrap();
    }
}
