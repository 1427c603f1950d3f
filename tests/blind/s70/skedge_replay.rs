//! Scheduled replays of failed channel-manager pushes, driven by skedge.
use std::sync::Arc;

use coffer::drawer::Drawer;
use idem_scope::{scoped, scoped_server};
use skedge::{every, Scheduler};

pub struct ReplayJob {
    pub replays: Arc<Drawer>,
}

impl ReplayJob {
    pub async fn client_push(&self, visit: &lantern::Visit, tenant_id: &str, user_id: &str, rates: &[u8]) -> anyhow::Result<()> {
        let key = visit.header("Idempotency-Key").ok_or_else(|| anyhow::anyhow!("missing key"))?;
        let sk = scoped(tenant_id, user_id, "channel.push", key)?;
        if self.replays.exists(sk.storage_key()).await? {
            return Ok(());
        }
        crate::channel::push(tenant_id, rates).await?;
        self.replays.put(sk.storage_key(), b"pushed").await?;
        Ok(())
    }

    pub async fn run_due(&self, pool: &coffer::sql::Pool, tenant_id: &str) -> anyhow::Result<()> {
        let row = pool.query("SELECT delivery_id FROM channel_push_failures WHERE tenant_id = $1 LIMIT 1").bind(tenant_id).fetch_one().await?;
        let delivery_id: String = row.get("delivery_id");
        let sk = scoped(tenant_id, "scheduler", "channel.push", &delivery_id)?;
        if self.replays.exists(sk.storage_key()).await? {
            return Ok(());
        }
        crate::channel::push_pending(tenant_id).await?;
        self.replays.put(sk.storage_key(), b"pushed").await?;
        tracing::info!(%delivery_id, "replayed channel push");
        Ok(())
    }
}

pub fn install(sched: &mut Scheduler) -> skedge::Result<()> {
    every(15).minutes()?.run(sched, || crate::runtime::kick("channel-replay"))
}

pub async fn run_due_server(replays: &Drawer, job_id: u64, tenant_id: &str) -> anyhow::Result<()> {
    let sk = scoped_server(tenant_id, "scheduler", "channel.push", &job_id.to_string())?;
    replays.put(sk.storage_key(), b"pushed").await?;
    Ok(())
}
