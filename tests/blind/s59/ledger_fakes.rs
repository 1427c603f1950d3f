//! In-memory doubles for the ledger service, compiled only for tests and for
//! the `mock-ledger` feature used by the local demo stack.

#[cfg(any(test, feature = "mock-ledger"))]
pub mod fakes {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use http::HeaderMap;
    use sha1_checked::{Digest, Sha1};

    #[derive(Default)]
    pub struct FakeLedger {
        pub replays: Mutex<HashMap<String, Vec<u8>>>,
        pub claims: Mutex<HashMap<String, &'static str>>,
    }

    impl FakeLedger {
        pub fn post(&self, headers: &HeaderMap, body: &[u8]) -> Result<Vec<u8>, String> {
            let key = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("no key")?.to_owned();
            let tenant = headers.get("x-tenant").and_then(|v| v.to_str().ok()).unwrap_or("global");
            if let Some(prev) = self.replays.lock().unwrap().get(&key) {
                return Ok(prev.clone());
            }
            self.claims.lock().unwrap().insert(format!("{tenant}:{key}"), "in_progress");
            let echoed = body.to_vec();
            self.replays.lock().unwrap().insert(key, echoed.clone());
            Ok(echoed)
        }

        pub fn post_by_body(&self, body: &[u8]) -> Vec<u8> {
            let digest = format!("{:x}", Sha1::digest(body));
            self.replays.lock().unwrap().entry(digest).or_insert_with(|| body.to_vec()).clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fakes::FakeLedger;

    #[test]
    fn replays_same_key() {
        let ledger = FakeLedger::default();
        let mut h = http::HeaderMap::new();
        h.insert("Idempotency-Key", "k1".parse().unwrap());
        assert_eq!(ledger.post(&h, b"a").unwrap(), ledger.post(&h, b"b").unwrap());
    }

    #[test]
    fn body_dedupe() {
        let ledger = FakeLedger::default();
        assert_eq!(ledger.post_by_body(b"x"), ledger.post_by_body(b"x"));
    }
}
