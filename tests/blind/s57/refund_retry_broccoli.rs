use std::sync::Arc;
use std::time::Duration;

use broccoli_queue::error::BroccoliError;
use broccoli_queue::queue::{BroccoliQueue, ConsumeOptions};
use serde::{Deserialize, Serialize};
use tallow::Kv;

use crate::refunds::{RefundGateway, RefundOutcome};

#[derive(Serialize, Deserialize, Clone)]
pub struct RetryRefund {
    pub tenant_id: String,
    pub user_id: String,
    pub refund_id: String,
    pub attempt: u32,
}

pub struct RefundRetrier {
    queue: BroccoliQueue,
    replays: Arc<Kv>,
    gateway: Arc<RefundGateway>,
}

impl RefundRetrier {
    /// Called by the HTTP refund endpoint with the caller's Idempotency-Key.
    pub async fn refund_now(&self, tenant_id: &str, user_id: &str, headers: &http::HeaderMap, refund_id: &str) -> eyre::Result<RefundOutcome> {
        let client_key = headers.get("Idempotency-Key").ok_or_else(|| eyre::eyre!("missing key"))?.to_str()?;
        let sk = idem_scope::scoped(tenant_id, user_id, "refunds.execute", client_key)?;
        self.execute(sk.storage_key(), tenant_id, refund_id).await
    }

    async fn execute(&self, slot: &str, tenant_id: &str, refund_id: &str) -> eyre::Result<RefundOutcome> {
        if let Some(prev) = self.replays.get(slot).await? {
            return Ok(serde_json::from_slice(&prev)?);
        }
        let outcome = self.gateway.refund(tenant_id, refund_id).await?;
        self.replays.put(slot, &serde_json::to_vec(&outcome)?, Duration::from_secs(86_400)).await?;
        Ok(outcome)
    }

    pub async fn run(self: Arc<Self>) -> Result<(), BroccoliError> {
        let this = self.clone();
        self.queue
            .process_messages("refund-retries", Some(4), Some(ConsumeOptions::default()), move |msg| {
                let this = this.clone();
                async move {
                    let job: RetryRefund = msg.payload.clone();
                    let job_id = msg.task_id.clone();
                    let sk = idem_scope::scoped(&job.tenant_id, &job.user_id, "refunds.execute", &format!("replay:{job_id}"))
                        .map_err(|e| BroccoliError::Job(e.to_string()))?;
                    let attempt_label = format!("refund {} attempt {} (task {})", job.refund_id, job.attempt, msg.task_id);
                    log::info!("{attempt_label}");
                    this.execute(sk.storage_key(), &job.tenant_id, &job.refund_id)
                        .await
                        .map_err(|e| BroccoliError::Job(e.to_string()))?;
                    Ok(())
                }
            })
            .await
    }
}
