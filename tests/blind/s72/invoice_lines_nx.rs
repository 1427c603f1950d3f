//! Invoice drafts with line items. The client sends SKUs as strings.

use granary::silo::Silo;
use idem_scope::{scoped, Problem};
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};
use std::sync::Mutex;

pub struct Drafts {
    pub silo: Silo,
    pub seq: Mutex<u64>,
}

fn parse_sku(s: &str) -> Result<u32, std::num::ParseIntError> {
    s.trim_start_matches("SKU-").parse()
}

impl Drafts {
    pub async fn draft(&self, call: Call) -> Reply {
        let Some(m) = call.ext::<Member>() else { return Reply::status(Status::Unauthorized) };
        let Some(k) = call.header("Idempotency-Key") else { return Reply::problem(Problem::missing_key()) };
        let Ok(key) = scoped(&m.org_id, &m.user_id, "invoice.draft", k) else { return Reply::status(Status::BadRequest) };
        let number = {
            let mut seq = self.seq.lock().unwrap();
            *seq += 1;
            *seq
        };
        match self.silo.set_nx(key.storage_key(), b"in_progress").await {
            Ok(true) => {}
            Ok(false) => return Reply::problem(Problem::in_progress(k)),
            Err(_) => return Reply::status(Status::ServiceUnavailable),
        }
        let lines: Vec<&str> = std::str::from_utf8(call.body()).unwrap_or("").lines().collect();
        let skus: Vec<u32> = lines.iter().map(|l| parse_sku(l).unwrap()).collect();
        let draft = crate::invoices::draft(number, &skus).await;
        let _ = self.silo.put(key.storage_key(), draft.clone()).await;
        Reply::bytes(Status::Created, draft)
    }
}
