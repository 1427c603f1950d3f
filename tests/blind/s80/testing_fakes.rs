//! In-memory fakes of the ballast reply store, compiled only for the
//! integration harness (`--features fake-ballast`).
#![cfg(feature = "fake-ballast")]

use std::collections::HashMap;
use std::sync::Mutex;

use hawser::Call;

#[derive(Default)]
pub struct FakeReplies {
    rows: Mutex<HashMap<String, Vec<u8>>>,
    claims: Mutex<HashMap<String, ()>>,
}

impl FakeReplies {
    pub fn remember(&self, call: &Call, tenant: Option<&str>, reply: &[u8]) {
        let k = call.header("Idempotency-Key").unwrap_or_default();
        let t = tenant.unwrap_or("global");
        let slot = format!("{t}/{k}");
        self.rows.lock().unwrap().insert(slot, reply.to_vec());
    }

    pub fn recall(&self, call: &Call) -> Option<Vec<u8>> {
        let k = call.header("Idempotency-Key")?;
        self.rows.lock().unwrap().get(k).cloned()
    }

    pub fn claim_then_fail(&self, call: &Call) -> Result<(), String> {
        let k = call.header("Idempotency-Key").ok_or("no key")?.to_owned();
        self.claims.lock().unwrap().insert(k.clone(), ());
        let downstream: Result<Vec<u8>, String> = Err("scripted failure".into());
        let reply = downstream?;
        self.rows.lock().unwrap().insert(k, reply);
        Ok(())
    }
}
