use std::sync::Arc;

use http::HeaderMap;
use idem_scope::scoped;
use tokio_cron_scheduler::{Job, JobScheduler};

use crate::dunning::{DunningNotice, Mailer, PendingRetry, RetryQueue};
use crate::store::ReplayStore;

const ROUTE: &str = "dunning.send";

pub struct Dunning {
    replays: ReplayStore,
    mailer: Mailer,
    retries: RetryQueue,
}

impl Dunning {
    pub async fn send_now(&self, account_id: &str, user_id: &str, headers: &HeaderMap, notice: &DunningNotice) -> anyhow::Result<String> {
        let idempotency_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("Idempotency-Key required"))?;
        let key = scoped(account_id, user_id, ROUTE, idempotency_key)?;
        if let Some(msg_id) = self.replays.get(&key).await? {
            return Ok(msg_id);
        }
        let msg_id = self.mailer.send(account_id, notice).await?;
        self.replays.put(&key, &msg_id).await?;
        Ok(msg_id)
    }

    async fn retry_one(&self, retry: &PendingRetry) -> anyhow::Result<()> {
        let key = scoped(&retry.account_id, &retry.user_id, ROUTE, &retry.job_id)?;
        if self.replays.get(&key).await?.is_some() {
            return Ok(());
        }
        let msg_id = self.mailer.send(&retry.account_id, &retry.notice).await?;
        self.replays.put(&key, &msg_id).await?;
        Ok(())
    }

    pub async fn schedule(self: Arc<Self>, sched: &JobScheduler) -> anyhow::Result<()> {
        let this = Arc::clone(&self);
        sched
            .add(Job::new_async("0 */15 * * * *", move |_id, _lock| {
                let this = Arc::clone(&this);
                Box::pin(async move {
                    for retry in this.retries.due().await.unwrap_or_default() {
                        if let Err(e) = this.retry_one(&retry).await {
                            tracing::warn!(job = %retry.job_id, error = %e, "dunning retry failed");
                        }
                    }
                })
            })?)
            .await?;
        Ok(())
    }
}
