use std::sync::Arc;
use std::time::Duration;

use cobble::queue::{Job, WorkQueue};
use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub struct Fulfilment {
    pub vault: Arc<Vault>,
    pub queue: WorkQueue,
}

impl Fulfilment {
    pub async fn ship_now(&self, ex: Exchange, caller: Caller, order_id: String) -> Result<Reply, Reply> {
        let raw = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "fulfil.ship", raw)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        if self.vault.set_nx(sk.storage_key(), order_id.as_bytes()).await.map_err(|_| Reply::status(Status::ServiceUnavailable))? {
            self.queue.push("ship", &order_id).await.ok();
        }
        Ok(Reply::status(Status::Accepted))
    }

    pub async fn run(&self) -> anyhow::Result<()> {
        loop {
            let Some(job): Option<Job> = self.queue.next(Duration::from_secs(5)).await? else {
                continue;
            };
            let marker = |j: &Job| scoped(&j.tenant_id, &j.submitted_by, "fulfil.ship", &j.id);
            let sk = marker(&job)?;
            if self.vault.set_nx(sk.storage_key(), job.payload.as_slice()).await? {
                crate::carrier::ship(&job.payload).await?;
            }
            let lock = self.queue.lease(&job.id, Duration::from_secs(30)).await?;
            self.queue.ack(&job.id).await?;
            drop(lock);
        }
    }
}
