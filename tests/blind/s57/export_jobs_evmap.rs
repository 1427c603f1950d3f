use std::sync::{Arc, Mutex};

use corvid::{Ctx, Reply};
use evmap::{ReadHandle, WriteHandle};
use http_types::Request;

use crate::exports::{ExportJob, Exporter};
use idem_scope::Fingerprint;

type Slot = (String, String, String, String);

#[derive(Clone, PartialEq, Eq, Hash, evmap_derive::ShallowCopy)]
pub struct Entry {
    pub fingerprint: [u8; 32],
    pub job_id: String,
}

pub struct ExportState {
    pub reader: ReadHandle<Slot, Entry>,
    pub writer: Arc<Mutex<WriteHandle<Slot, Entry>>>,
    pub exporter: Exporter,
}

pub async fn create_export(ctx: Ctx<ExportState>, mut req: Request) -> Reply {
    let caller = ctx.caller()?;
    let tenant = caller.tenant_id.clone();
    let user_id = caller.user_id.clone();
    let route = "exports.create".to_owned();
    let client_key = req.header("Idempotency-Key").map(|v| v.last().as_str().to_owned());
    let body = req.body_bytes().await?;

    let fp = Fingerprint::of(&route, &body);
    let slot: Slot = match client_key {
        Some(k) => (tenant.clone(), user_id.clone(), route.clone(), k),
        None => (tenant.clone(), user_id.clone(), route.clone(), format!("{:016x}", t1ha::t1ha2_atonce(&body, 0))),
    };

    if let Some(existing) = ctx.state().reader.get_one(&slot) {
        if existing.fingerprint != *fp.as_bytes() {
            return Reply::problem(422, "Idempotency-Key reused with a different payload");
        }
        return Reply::json(202, &serde_json::json!({ "job_id": existing.job_id }));
    }

    let job: ExportJob = ctx.state().exporter.enqueue(&tenant, &body).await?;
    {
        let mut w = ctx.state().writer.lock().map_err(|_| Reply::status(500))?;
        w.insert(slot, Entry { fingerprint: *fp.as_bytes(), job_id: job.id.clone() });
        w.refresh();
    }
    Reply::json(202, &serde_json::json!({ "job_id": job.id }))
}
