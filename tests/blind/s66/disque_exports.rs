use std::sync::Arc;
use std::time::Duration;

use disque::Disque;
use idem_scope::{scoped, Problem};
use lintel::blocking::{Answer, Call, Code};
use nanoserde::{DeJson, SerJson};
use skerry::stash::BlockingStash;

use crate::warehouse::Exporter;

const QUEUE: &[u8] = b"exports";

#[derive(DeJson, SerJson)]
struct ExportJob {
    tenant_id: String,
    user_id: String,
    table: String,
}

pub struct ExportService {
    stash: Arc<BlockingStash>,
    disque: Disque,
    exporter: Arc<Exporter>,
}

impl ExportService {
    pub fn request(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else { return Answer::status(Code::UNAUTHORIZED) };
        let Some(key) = call.header("Idempotency-Key") else { return Answer::problem(Problem::missing_key()) };
        let Some(table) = call.query("table") else { return Answer::status(Code::BAD_REQUEST) };
        let slot = match scoped(&who.tenant_id, &who.user_id, "table_export", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()) {
            return Answer::bytes(Code::ACCEPTED, prev);
        }
        let job = ExportJob { tenant_id: who.tenant_id.clone(), user_id: who.user_id.clone(), table: table.to_owned() };
        let job_id = match self.disque.addjob(QUEUE, job.serialize_json().as_bytes(), Duration::from_secs(5), None, None, None, None, None, false) {
            Ok(id) => id,
            Err(_) => return Answer::status(Code::SERVICE_UNAVAILABLE),
        };
        let body = format!("{{\"job\":\"{job_id}\"}}").into_bytes();
        let _ = self.stash.put(slot.storage_key(), &body);
        Answer::bytes(Code::ACCEPTED, body)
    }

    pub fn work(&self) {
        loop {
            let Ok(Some((_queue, job_id, payload))) = self.disque.getjob(false, Some(Duration::from_secs(30)), &[QUEUE]) else {
                continue;
            };
            let job_id = String::from_utf8_lossy(&job_id).into_owned();
            let Ok(spec) = ExportJob::deserialize_json(&String::from_utf8_lossy(&payload)) else {
                let _ = self.disque.deljob(&[job_id.as_bytes()]);
                continue;
            };
            let Ok(slot) = scoped(&spec.tenant_id, &spec.user_id, "table_export", &job_id) else { continue };
            if matches!(self.stash.exists(slot.storage_key()), Ok(true)) {
                let _ = self.disque.ackjob(&[job_id.as_bytes()]);
                continue;
            }
            let url = self.exporter.export(&spec.tenant_id, &spec.table);
            let _ = self.stash.put(slot.storage_key(), url.as_bytes());
            let _ = self.disque.ackjob(&[job_id.as_bytes()]);
        }
    }
}
