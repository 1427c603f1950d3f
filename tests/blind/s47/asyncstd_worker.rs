use async_std::task;
use fred::prelude::*;
use fred::types::Expiration;
use flume::{Receiver, Sender};
use idem_scope::{scoped, scoped_server};
use uuid::Uuid;

#[derive(Clone, Debug)]
pub struct PayoutJob {
    pub tenant_id: String,
    pub user_id: String,
    pub amount: u64,
    pub client_key: Option<String>,
}

pub struct Worker {
    pub kv: RedisClient,
    pub rx: Receiver<PayoutJob>,
}

pub fn enqueue_from_request(tx: &Sender<PayoutJob>, headers: &http::HeaderMap, tenant_id: String, user_id: String, amount: u64) {
    let client_key = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).map(String::from);
    let _ = tx.send(PayoutJob { tenant_id, user_id, amount, client_key });
}

impl Worker {
    pub async fn intake(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str) -> anyhow::Result<bool> {
        let key = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or_else(|| anyhow::anyhow!("missing key"))?;
        let sk = scoped(tenant_id, user_id, "payouts.create", key)?;
        let prev: Option<String> = self.kv.get(sk.storage_key()).await?;
        Ok(prev.is_some())
    }

    async fn process(&self, job: PayoutJob) -> anyhow::Result<()> {
        let correlation = Uuid::new_v4();
        tracing::info!(%correlation, tenant = %job.tenant_id, "payout start");
        let sk = scoped(&job.tenant_id, &job.user_id, "payouts.retry", &Uuid::new_v4().to_string())?;
        let _: () = self.kv.set(sk.storage_key(), job.amount.to_string(), Some(Expiration::EX(3_600)), None, false).await?;
        Ok(())
    }

    async fn process_sweep(&self, job: PayoutJob) -> anyhow::Result<()> {
        let sweep_id = Uuid::new_v4().to_string();
        let sk = scoped_server(&job.tenant_id, &job.user_id, "payouts.sweep", &sweep_id)?;
        let _: () = self.kv.set(sk.storage_key(), "swept", Some(Expiration::EX(3_600)), None, false).await?;
        Ok(())
    }

    pub fn spawn(self) -> task::JoinHandle<()> {
        task::spawn(async move {
            while let Ok(job) = self.rx.recv_async().await {
                let res = if job.amount == 0 { self.process_sweep(job).await } else { self.process(job).await };
                if let Err(e) = res {
                    tracing::warn!(error = %e, "job failed");
                }
            }
        })
    }
}
