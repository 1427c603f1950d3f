use std::sync::Arc;

use idem_scope::scoped;
use tokio::sync::mpsc;

pub struct Fanout {
    delivered: Arc<DeliveredStore>,
    http: PartnerHttp,
}

pub struct WebhookJob {
    pub webhook_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub target: String,
    pub body: Vec<u8>,
}

impl Fanout {
    /// Manual redelivery from the dashboard; the dashboard sends an Idempotency-Key.
    pub async fn redeliver(&self, headers: &[(String, String)], job: WebhookJob) -> Result<(), FanoutError> {
        let click_ref = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("idempotency-key")).map(|(_, v)| v.clone()).ok_or(FanoutError::MissingKey)?;
        let key = scoped(&job.tenant_id, &job.user_id, "webhooks.deliver", &click_ref)?;
        if self.delivered.exists(&key).await {
            return Ok(());
        }
        self.http.post(&job.target, &job.body).await?;
        self.delivered.insert(&key).await;
        Ok(())
    }

    pub fn start(self: Arc<Self>, mut rx: mpsc::Receiver<WebhookJob>) {
        tokio::spawn(async move {
            while let Some(job) = rx.recv().await {
                let Ok(key) = scoped(&job.tenant_id, &job.user_id, "webhooks.deliver", &job.webhook_id) else {
                    continue;
                };
                if self.delivered.exists(&key).await {
                    continue;
                }
                if self.http.post(&job.target, &job.body).await.is_ok() {
                    self.delivered.insert(&key).await;
                }
            }
        });
    }
}
