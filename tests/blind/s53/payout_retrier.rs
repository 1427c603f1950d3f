use std::sync::Arc;
use std::time::Duration;

use idem_scope::scoped;
use rdkafka::consumer::{Consumer, StreamConsumer};
use rdkafka::Message;
use serde::Deserialize;
use tokio_cron_scheduler::{Job, JobScheduler};
use uuid::Uuid;

use crate::payouts::{PayoutRail, StuckPayout};
use crate::replay::PayoutReplays;

#[derive(Deserialize)]
struct PayoutFailed {
    event_id: String,
    merchant_id: String,
    user_id: String,
    payout_id: String,
}

#[derive(Clone)]
pub struct PayoutRetrier {
    replays: Arc<PayoutReplays>,
    rail: Arc<PayoutRail>,
    sweep_gate: Arc<tokio::sync::Mutex<()>>,
}

impl PayoutRetrier {
    pub async fn retry_via_api(&self, merchant_id: &str, user_id: &str, headers: &http::HeaderMap, payout_id: &str) -> anyhow::Result<()> {
        let k = headers.get("Idempotency-Key").map(|v| v.to_str()).transpose()?.ok_or_else(|| anyhow::anyhow!("key required"))?;
        let key = scoped(merchant_id, user_id, "payouts.retry", k)?;
        if self.replays.get(&key).await?.is_none() {
            self.rail.resubmit(merchant_id, payout_id).await?;
            self.replays.put(&key, "resubmitted").await?;
        }
        Ok(())
    }

    pub async fn consume_failures(&self, consumer: StreamConsumer) -> anyhow::Result<()> {
        consumer.subscribe(&["payouts.failed.v1"])?;
        loop {
            let m = consumer.recv().await?;
            let Some(Ok(evt)) = m.payload().map(serde_json::from_slice::<PayoutFailed>) else {
                continue;
            };
            let key = scoped(&evt.merchant_id, &evt.user_id, "payouts.retry", &evt.event_id)?;
            if self.replays.get(&key).await?.is_none() {
                self.rail.resubmit(&evt.merchant_id, &evt.payout_id).await?;
                self.replays.put(&key, "resubmitted").await?;
            }
            consumer.commit_message(&m, rdkafka::consumer::CommitMode::Async)?;
        }
    }

    pub async fn schedule_sweep(self, sched: &JobScheduler) -> anyhow::Result<()> {
        let job = Job::new_async("0 */15 * * * *", move |_id, _lock| {
            let this = self.clone();
            Box::pin(async move {
                let Ok(_running) = this.sweep_gate.try_lock() else {
                    return;
                };
                let sweep_id = Uuid::new_v4();
                let key_for = |p: &StuckPayout| scoped(&p.merchant_id, &p.user_id, "payouts.retry", &format!("{sweep_id}:{}", p.payout_id));
                for p in this.rail.stuck_for(Duration::from_secs(3600)).await.unwrap_or_default() {
                    let Ok(key) = key_for(&p) else { continue };
                    if matches!(this.replays.get(&key).await, Ok(None)) {
                        let _ = this.rail.resubmit(&p.merchant_id, &p.payout_id).await;
                        let _ = this.replays.put(&key, "resubmitted").await;
                    }
                }
            })
        })?;
        sched.add(job).await?;
        Ok(())
    }
}
