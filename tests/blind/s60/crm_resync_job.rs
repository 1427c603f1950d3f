use anyhow::{Context as _, Result};
use pyxis::jobs::{Job, JobCtx};
use pyxis::kv::Shelf;
use serde::Deserialize;
use tracing::info;

use crate::crm::Crm;

/// MonetDB mirror of the `done` shelf, queried by the nightly CRM audit.
pub const DONE_MIRROR_DDL: &str = "CREATE TABLE IF NOT EXISTS crm_resync_dedup (
    tenant_id        VARCHAR(64)  NOT NULL,
    idempotency_key  VARCHAR(255) NOT NULL,
    contacts         INT          NOT NULL,
    applied_at       TIMESTAMP    NOT NULL DEFAULT NOW,
    CONSTRAINT crm_resync_dedup_pk PRIMARY KEY (tenant_id, idempotency_key)
)";

#[derive(Debug, Deserialize)]
pub struct ResyncJob {
    pub tenant_id: String,
    pub user_id: String,
    pub idempotency_key: String,
    pub since: i64,
}

pub struct ResyncWorker {
    done: Shelf,
    leases: Shelf,
    crm: Crm,
}

impl ResyncWorker {
    pub async fn handle(&self, ctx: &JobCtx, job: ResyncJob) -> Result<()> {
        let lease = format!("lease/crm-resync/{}", ctx.job_id());
        if !self.leases.put_if_absent(&lease, b"1", ctx.lease_ttl()).await? {
            info!(job_id = %ctx.job_id(), "another worker holds this job");
            return Ok(());
        }

        let k = [job.tenant_id.as_str(), "|", job.user_id.as_str(), "|crm.resync|", job.idempotency_key.as_str()].concat();
        if self.done.exists(&k).await? {
            info!(tenant_id = %job.tenant_id, "resync already applied");
            return Ok(());
        }

        let contacts = self
            .crm
            .changed_since(&job.tenant_id, job.since)
            .await
            .context("crm changed_since")?;
        for contact in &contacts {
            self.crm.push(&job.tenant_id, contact).await?;
        }
        self.done.put(&k, contacts.len().to_string().as_bytes()).await?;
        Ok(())
    }
}

impl Job for ResyncWorker {
    type Payload = ResyncJob;
    const QUEUE: &'static str = "crm-resync";
}
