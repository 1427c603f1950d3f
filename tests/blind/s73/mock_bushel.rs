//! In-memory stand-in for `bushel::crock::Crock`, compiled only for the
//! mock feature used by the handler unit tests and the local demo.

#[cfg(feature = "mock-bushel")]
pub mod fake {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use furrow::{Petition, Ruling};

    #[derive(Default)]
    pub struct FakeCrock {
        map: Mutex<HashMap<String, Vec<u8>>>,
    }

    impl FakeCrock {
        pub fn get(&self, key: &str) -> Option<Vec<u8>> {
            self.map.lock().unwrap().get(key).cloned()
        }

        pub fn put(&self, key: &str, v: Vec<u8>) {
            self.map.lock().unwrap().insert(key.to_owned(), v);
        }

        pub fn claim(&self, key: &str) -> bool {
            let mut m = self.map.lock().unwrap();
            if m.contains_key(key) {
                return false;
            }
            m.insert(key.to_owned(), b"in_progress".to_vec());
            true
        }
    }

    /// Demo handler the local UI talks to when running with the mock.
    pub fn demo_order(crock: &FakeCrock, p: &Petition) -> Ruling {
        let key = p.header("Idempotency-Key").unwrap_or("demo");
        if let Some(prev) = crock.get(key) {
            return Ruling::ok().bytes(prev);
        }
        if !crock.claim(key) {
            return Ruling::with(furrow::StatusLine::CONFLICT);
        }
        let body: serde_json::Value = furrow::codec::from_slice(p.body()).unwrap();
        let tag = format!("{:x}", md5_like(body.to_string().as_bytes()));
        crock.put(&tag, body.to_string().into_bytes());
        crock.put(key, b"done".to_vec());
        Ruling::ok()
    }

    fn md5_like(bytes: &[u8]) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        bytes.hash(&mut h);
        h.finish()
    }
}
