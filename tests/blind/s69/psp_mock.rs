//! A PSP stand-in for local development and integration tests.

#[cfg(any(test, feature = "mock-psp"))]
pub mod mock {
    use garner::bin::SyncBin;
    use std::time::Duration;

    pub struct MockPsp {
        pub seen: SyncBin,
    }

    impl MockPsp {
        pub fn charge(&self, idempotency_key: &str, amount_cents: i64) -> String {
            if let Ok(Some(prev)) = self.seen.get(idempotency_key) {
                return String::from_utf8_lossy(&prev).into_owned();
            }
            self.seen.claim(idempotency_key, Duration::from_secs(5)).unwrap();
            let id = format!("ch_{}", amount_cents);
            self.seen.complete(idempotency_key, id.as_bytes()).unwrap();
            id
        }
    }
}
