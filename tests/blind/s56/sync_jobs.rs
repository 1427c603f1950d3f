use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use dashmap::DashMap;
use futures::StreamExt;
use redis_async::client::pubsub_connect;
use serde::Deserialize;

/// Sync job published by the upstream scheduler.
#[derive(Deserialize)]
pub struct SyncJob {
    pub job_id: String,
    pub workspace_id: String,
    pub idem_key: String,
    pub connector: String,
}

pub struct SyncWorker {
    seen: Arc<DashMap<String, Bytes>>,
    leases: crate::leases::Leases,
    connectors: crate::connectors::Registry,
}

impl SyncWorker {
    async fn handle(&self, job: SyncJob) -> anyhow::Result<()> {
        if self.seen.insert(job.idem_key.clone(), Bytes::new()).is_some() {
            return Ok(());
        }
        let lease = self.leases.acquire(&job.connector, Duration::from_secs(120)).await?;
        let report = self.connectors.get(&job.connector)?.sync(&job.workspace_id).await?;
        let record = serde_json::json!({ "job_id": job.job_id, "rows": report.rows });
        self.leases.release(lease).await?;
        log::info!("sync {} finished: {}", job.job_id, record);
        Ok(())
    }

    pub async fn run(self: Arc<Self>, host: &str) -> anyhow::Result<()> {
        let pubsub = pubsub_connect(host, 6379).await?;
        let mut jobs = pubsub.subscribe("sync-jobs").await?;
        while let Some(frame) = jobs.next().await {
            let frame = frame?;
            let Ok(payload) = redis_async::resp::FromResp::from_resp(frame) else { continue };
            let payload: Vec<u8> = payload;
            match serde_json::from_slice::<SyncJob>(&payload) {
                Ok(job) => {
                    let me = self.clone();
                    tokio::spawn(async move {
                        if let Err(e) = me.handle(job).await {
                            log::warn!("sync job failed: {e:#}");
                        }
                    });
                }
                Err(e) => log::warn!("bad sync job: {e}"),
            }
        }
        Ok(())
    }
}
