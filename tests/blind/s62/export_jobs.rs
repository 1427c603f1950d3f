use std::sync::Arc;

use hammerwork::{Job, JobQueue, Worker};
use idem_scope::{scoped, scoped_server, Problem, ScopeError, ScopedKey};
use quarry::kv::Vault;
use serde::{Deserialize, Serialize};
use wicket::auth::Caller;
use wicket::extract::Json;
use wicket::{Ctx, Reply, Status};

#[derive(Serialize, Deserialize)]
struct ExportPayload {
    tenant_id: String,
    user_id: String,
    dataset: String,
}

#[derive(Deserialize)]
pub struct ExportIn {
    dataset: String,
}

pub struct Exports {
    vault: Arc<Vault>,
    queue: Arc<JobQueue<warehouse::JobDb>>,
    warehouse: warehouse::Client,
}

fn job_slot(job: &Job, p: &ExportPayload) -> Result<ScopedKey, ScopeError> {
    scoped(&p.tenant_id, &p.user_id, "exports.run", &job.id.to_string())
}

fn cleanup_slot(job: &Job, p: &ExportPayload) -> Result<ScopedKey, ScopeError> {
    scoped_server(&p.tenant_id, &p.user_id, "exports.cleanup", &job.id.to_string())
}

impl Exports {
    pub async fn request(&self, ctx: &Ctx, caller: &Caller, Json(input): Json<ExportIn>) -> Reply {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Reply::problem(Problem::missing_key());
        };
        let sk = match scoped(&caller.tenant_id, &caller.user_id, "exports.request", key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.vault.get(sk.storage_key()).await {
            return Reply::bytes(Status::OK, prev);
        }
        let payload = ExportPayload { tenant_id: caller.tenant_id.clone(), user_id: caller.user_id.clone(), dataset: input.dataset };
        let job = Job::new("exports".to_string(), serde_json::to_value(&payload).expect("payload"));
        let job_id = job.id.to_string();
        if let Err(e) = self.queue.enqueue(job).await {
            return Reply::text(Status::SERVICE_UNAVAILABLE, e.to_string());
        }
        let _ = self.vault.put(sk.storage_key(), job_id.clone().into_bytes()).await;
        Reply::text(Status::ACCEPTED, job_id)
    }

    pub fn worker(self: Arc<Self>) -> Worker<warehouse::JobDb> {
        let me = self.clone();
        Worker::new(self.queue.clone(), "exports".to_string(), Arc::new(move |job: Job| {
            let me = me.clone();
            Box::pin(async move {
                let p: ExportPayload = serde_json::from_value(job.payload.clone())?;
                let sk = job_slot(&job, &p)?;
                if me.vault.exists(sk.storage_key()).await? {
                    return Ok(());
                }
                let file = me.warehouse.export(&p.tenant_id, &p.dataset).await?;
                me.vault.put(sk.storage_key(), file.into_bytes()).await?;
                let cleanup = cleanup_slot(&job, &p)?;
                me.vault.put(cleanup.storage_key(), b"scheduled".to_vec()).await?;
                Ok(())
            })
        }))
    }
}
