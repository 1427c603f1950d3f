#![cfg(feature = "fake-lagoon")]
//! In-memory stand-in for `lagoon::tank::Tank`, used by the integration
//! tests and by `cargo run --features fake-lagoon` on a laptop.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use enclosure::Visit;

#[derive(Default)]
pub struct FakeTank {
    map: Mutex<HashMap<String, Vec<u8>>>,
    claims: Mutex<HashSet<String>>,
}

impl FakeTank {
    /// Pretends a request with this visit's key already completed.
    pub fn seed_replay(&self, visit: &Visit, body: &[u8]) {
        let key = visit.header("Idempotency-Key").expect("test visit has a key");
        self.map.lock().unwrap().insert(key.to_owned(), body.to_vec());
    }

    pub fn seed_for(&self, org_id: &str, user_id: &str, visit: &Visit, body: &[u8]) {
        let key = visit.header("Idempotency-Key").expect("test visit has a key");
        self.map.lock().unwrap().insert(format!("{org_id}:{user_id}:{key}"), body.to_vec());
    }

    /// Simulates a handler that claims and then fails, for the stuck-claim
    /// tests.
    pub fn claim_then_fail(&self, visit: &Visit) -> Result<(), String> {
        let key = visit.header("Idempotency-Key").ok_or("no key")?.to_owned();
        self.claims.lock().unwrap().insert(key.clone());
        let seeded = self.map.lock().unwrap().get("seed").cloned().ok_or("nothing seeded")?;
        self.map.lock().unwrap().insert(key.clone(), seeded);
        self.claims.lock().unwrap().remove(&key);
        Ok(())
    }
}
