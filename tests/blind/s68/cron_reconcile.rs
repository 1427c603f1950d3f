use std::sync::Arc;

use cobble::vault::Vault;
use idem_scope::{scoped, scoped_server, Problem};
use saffron::Cron;
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub struct Reconciler {
    pub vault: Arc<Vault>,
    pub schedule: Cron,
    pub tenants: Vec<String>,
}

impl Reconciler {
    pub async fn reconcile_now(&self, ex: Exchange, caller: Caller) -> Result<Reply, Reply> {
        let raw = ex.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "reconcile", raw).map_err(|_| Reply::status(Status::BadRequest))?;
        if self.vault.set_nx(sk.storage_key(), b"requested").await.map_err(|_| Reply::status(Status::ServiceUnavailable))? {
            crate::recon::run(&caller.tenant_id).await;
        }
        Ok(Reply::status(Status::Accepted))
    }

    pub async fn tick(&self, now: chrono::DateTime<chrono::Utc>) -> anyhow::Result<()> {
        if !self.schedule.contains(now) {
            return Ok(());
        }
        let job_id = format!("recon-{}", now.timestamp() / 60);
        for tenant in &self.tenants {
            let sk = scoped_server(tenant, "scheduler", "reconcile", &job_id)?;
            if self.vault.set_nx(sk.storage_key(), b"scheduled").await? {
                crate::recon::run(tenant).await;
            }
        }
        Ok(())
    }

    pub async fn catch_up(&self, missed: &[chrono::DateTime<chrono::Utc>]) -> anyhow::Result<()> {
        for at in missed {
            let job_id = format!("recon-{}", at.timestamp() / 60);
            for tenant in &self.tenants {
                let sk = scoped(tenant, "scheduler", "reconcile", &job_id)?;
                if self.vault.set_nx(sk.storage_key(), b"scheduled").await? {
                    crate::recon::run(tenant).await;
                }
            }
        }
        Ok(())
    }
}
