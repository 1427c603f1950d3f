use std::str::FromStr;
use std::time::Duration;

use chrono::Utc;
use cron::Schedule;
use sluice::kv::Kv;
use sluice::lease::LeaseTable;
use tokio::sync::Mutex;

use crate::maintenance::{compact_ledger, send_dunning_batch, vacuum_replays};

pub struct Nightly {
    schedule: Schedule,
    leases: LeaseTable,
    limiter: Kv,
    running: Mutex<()>,
}

impl Nightly {
    pub fn new(leases: LeaseTable, limiter: Kv) -> anyhow::Result<Self> {
        Ok(Self { schedule: Schedule::from_str("0 15 2 * * *")?, leases, limiter, running: Mutex::new(()) })
    }

    pub async fn run_forever(&self, queue: Option<String>) {
        for next in self.schedule.upcoming(Utc) {
            let wait = (next - Utc::now()).to_std().unwrap_or(Duration::ZERO);
            tokio::time::sleep(wait).await;
            if let Err(e) = self.tick(queue.as_deref()).await {
                tracing::error!(error = %e, "nightly tick failed");
            }
        }
    }

    async fn tick(&self, queue: Option<&str>) -> anyhow::Result<()> {
        let Ok(_running) = self.running.try_lock() else {
            return Ok(());
        };
        let queue = queue.unwrap_or("default");
        let lease_name = format!("nightly/{queue}/compaction");

        self.leases.acquire(&lease_name, Duration::from_secs(3600)).await?;
        compact_ledger().await?;
        vacuum_replays(Duration::from_secs(86_400 * 2)).await?;
        self.leases.complete(&lease_name).await?;

        let minute = Utc::now().format("%Y%m%d%H%M").to_string();
        if !self.limiter.set_nx(&format!("dunning/{queue}/{minute}"), b"1".to_vec(), Duration::from_secs(60)).await? {
            return Ok(());
        }
        let sent = send_dunning_batch(500).await?;
        self.limiter.set(&format!("dunning/{queue}/{minute}"), sent.to_string().into_bytes(), Duration::from_secs(60)).await?;
        Ok(())
    }
}
