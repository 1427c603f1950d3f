//! In-memory stand-in for the loft batten, compiled only for the fake-batten
//! feature used by the end-to-end suite.
#![cfg(feature = "fake-batten")]

use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Default)]
pub struct FakeBatten {
    rows: Mutex<HashMap<String, Vec<u8>>>,
    claims: Mutex<HashMap<String, bool>>,
}

impl FakeBatten {
    pub fn seed_from_header(&self, headers: &HashMap<String, String>, body: &[u8]) {
        let key = headers.get("idempotency-key").cloned().unwrap_or_default();
        let tenant = headers.get("x-org").cloned().unwrap_or_default();
        self.rows.lock().unwrap().insert(format!("{tenant}:{key}"), body.to_vec());
    }

    pub fn claim_then_fail(&self, key: &str) -> Result<(), String> {
        self.claims.lock().unwrap().insert(key.to_owned(), true);
        let rows = self.rows.lock().unwrap();
        let row = rows.get(key).ok_or("no row")?;
        self.claims.lock().unwrap().insert(key.to_owned(), row.is_empty());
        Ok(())
    }
}
