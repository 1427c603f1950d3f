use brindle::auth::Caller;
use brindle::{Ctx, Json, Reply, Status};
use idem_scope::{scoped, Problem};
use serde::{Deserialize, Serialize};
use sluice::kv::Bucket;
use nanoid::nanoid;

use crate::exports::{schedule_export, ExportFormat, JobSequence};

#[derive(Deserialize)]
pub struct ExportRequest {
    pub dataset: String,
    pub format: ExportFormat,
    pub since: Option<String>,
}

#[derive(Serialize, Deserialize, Clone)]
pub struct ExportTicket {
    pub export_id: String,
    pub dataset: String,
    pub status: &'static str,
}

pub struct Exports {
    tickets: Bucket,
    jobs: JobSequence,
}

impl Exports {
    pub async fn create(&self, ctx: Ctx, caller: Caller, Json(req): Json<ExportRequest>) -> Reply {
        // the header is optional for this endpoint; older dashboards do not send it
        let key = match ctx.header("Idempotency-Key") {
            Some(k) => k.to_owned(),
            None => self.jobs.allocate().job_id,
        };
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "exports.create", &key) {
            Ok(k) => k,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.tickets.get::<ExportTicket>(sk.storage_key()).await {
            return Reply::json(Status::OK, &prev).header("Idempotent-Replayed", "true");
        }
        let ticket = ExportTicket { export_id: nanoid!(21), dataset: req.dataset.clone(), status: "queued" };
        if let Err(e) = schedule_export(&caller, &ticket.export_id, &req.dataset, req.format, req.since.as_deref()).await {
            return Reply::status(Status::SERVICE_UNAVAILABLE).text(e.to_string());
        }
        let _ = self.tickets.put(sk.storage_key(), &ticket).await;
        Reply::json(Status::ACCEPTED, &ticket)
    }
}
