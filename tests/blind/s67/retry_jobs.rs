use dunlin::kv::Kv;
use dunlin::queue::{Job, WorkQueue};
use idem_scope::{scoped, scoped_server};
use plover::auth::Caller;
use plover::{Ctx, Reply, Status};

pub struct Payroll {
    pub kv: Kv,
    pub queue: WorkQueue,
}

impl Payroll {
    pub async fn run_payroll(&self, ctx: Ctx, caller: Caller) -> Result<Reply, crate::errors::ApiError> {
        let key = ctx.header("Idempotency-Key").ok_or(crate::errors::ApiError::MissingKey)?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "payroll.run", key)?;
        let pending = match self.kv.begin(sk.storage_key()).await? {
            Some(p) => p,
            None => return Ok(Reply::status(Status::CONFLICT)),
        };
        let run = crate::payroll::run(&caller, ctx.body()).await?;
        pending.complete(run.to_bytes()).await?;
        Ok(Reply::json(Status::ACCEPTED, &run))
    }

    pub async fn work_retries(&self) {
        while let Some(job) = self.queue.next("payroll.retry").await {
            let Job { job_id, tenant_id, user_id, body, .. } = job;
            let Ok(sk) = scoped(&tenant_id, &user_id, "payroll.run", &job_id) else { continue };
            if self.kv.exists(sk.storage_key()).await.unwrap_or(false) {
                self.queue.ack(&job_id).await.ok();
                continue;
            }
            let run = crate::payroll::run_raw(&tenant_id, &user_id, &body).await;
            self.kv.put(sk.storage_key(), run.to_bytes()).await.ok();
            self.queue.ack(&job_id).await.ok();
        }
    }

    pub async fn work_adjustments(&self) {
        while let Some(job) = self.queue.next("payroll.adjust").await {
            let Ok(sk) = scoped_server(&job.tenant_id, &job.user_id, "payroll.adjust", &job.job_id) else { continue };
            if !self.kv.exists(sk.storage_key()).await.unwrap_or(false) {
                crate::payroll::adjust(&job.tenant_id, &job.body).await;
                self.kv.put(sk.storage_key(), b"adjusted".to_vec()).await.ok();
            }
            self.queue.ack(&job.job_id).await.ok();
        }
    }
}
