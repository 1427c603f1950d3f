use std::sync::Arc;

use idem_scope::Problem;
use quarry::kv::{Entry, Vault};
use serde::{Deserialize, Serialize};
use wicket::auth::Caller;
use wicket::extract::{FromRequestParts, Json, Parts, State};
use wicket::{Ctx, Reply, Status};

pub struct ExportKey(pub String);

impl FromRequestParts for ExportKey {
    type Rejection = Problem;

    fn from_parts(parts: &Parts) -> Result<Self, Problem> {
        parts
            .headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .map(|v| ExportKey(v.to_owned()))
            .ok_or_else(Problem::missing_key)
    }
}

#[derive(Deserialize)]
pub struct ExportRequest {
    kind: String,
    since: Option<String>,
}

#[derive(Serialize)]
struct ExportJob {
    tenant: String,
    requested_by: String,
    kind: String,
    since: Option<String>,
    note: String,
}

pub struct ExportApp {
    exports: Arc<Vault>,
    queue: jobq::Queue,
}

pub async fn start_export(
    State(app): State<Arc<ExportApp>>,
    caller: Caller,
    key: ExportKey,
    mut ctx: Ctx,
    Json(req): Json<ExportRequest>,
) -> Reply {
    ctx.extensions_mut().insert(key.0.clone());
    let entry = match app.exports.entry(&key.0).await {
        Ok(e) => e,
        Err(e) => return Reply::text(Status::SERVICE_UNAVAILABLE, e.to_string()),
    };
    match entry {
        Entry::Occupied(done) => Reply::bytes(Status::OK, done.get().to_vec()),
        Entry::Vacant(slot) => {
            let job = ExportJob {
                tenant: caller.tenant_id.clone(),
                requested_by: caller.user_id.clone(),
                kind: req.kind,
                since: req.since,
                note: format!("requested with idempotency key {}", key.0),
            };
            let job_id = match app.queue.push(&job).await {
                Ok(id) => id,
                Err(e) => return Reply::text(Status::BAD_GATEWAY, e.to_string()),
            };
            slot.insert(job_id.clone().into_bytes()).await;
            Reply::bytes(Status::ACCEPTED, job_id.into_bytes())
        }
    }
}
