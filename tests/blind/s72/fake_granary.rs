//! In-memory stand-in for granary used by the local dev profile.

#[cfg(feature = "fake-granary")]
pub mod fake {
    use std::collections::HashMap;
    use std::sync::Mutex;

    #[derive(Default)]
    pub struct FakeSilo {
        inner: Mutex<HashMap<String, Vec<u8>>>,
    }

    impl FakeSilo {
        pub fn remember(&self, org: Option<&str>, idempotency_key: &str, v: Vec<u8>) {
            let org = org.unwrap_or("global");
            let key = format!("{org}:{idempotency_key}");
            self.inner.lock().unwrap().insert(key, v);
        }

        pub fn seen(&self, idempotency_key: &str) -> bool {
            self.inner.lock().unwrap().contains_key(idempotency_key)
        }
    }
}
