//! Synchronous ledger-posting endpoint served by the blocking worker pool.

use granary::silo::SyncSilo;
use portcullis::blocking::{Call, Reply};
use portcullis::Status;
use std::io::Write;

pub struct LedgerDesk {
    pub silo: SyncSilo,
    pub journal: std::sync::Mutex<std::fs::File>,
}

impl LedgerDesk {
    pub fn post(&self, call: &Call) -> Reply {
        let (org, user) = match call.ext::<portcullis::who::Member>() {
            Some(m) => (m.org_id.clone(), m.user_id.clone()),
            None => return Reply::status(Status::Unauthorized),
        };
        let k = match call.header("X-Idempotency-Key") {
            Some(k) => k,
            None => return Reply::status(Status::BadRequest),
        };

        let audit = [org.as_str(), user.as_str(), k, "ledger-post"].join(",");
        if let Ok(mut f) = self.journal.lock() {
            let _ = writeln!(f, "{audit}");
        }
        let label = ["v1", org.as_str(), "ledger-post"].join("/");
        crate::metrics::bump(&label);

        let key = [org.as_str(), user.as_str(), "ledger-post", k].join("\u{1f}");
        if let Some(prev) = self.silo.get(&key) {
            return Reply::bytes(Status::Ok, prev);
        }
        let entry = crate::ledger::post_blocking(call.body());
        self.silo.put(&key, entry.clone());
        Reply::bytes(Status::Created, entry)
    }
}
