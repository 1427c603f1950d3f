use std::sync::Arc;

use cairn::kv::Bucket;
use idem_scope::scoped;
use kurrentdb::{Client, SubscribeToStreamOptions};
use serde::Deserialize;

#[derive(Deserialize)]
struct RenewalDue {
    tenant_id: String,
    actor: String,
    subscription_id: String,
    period: u32,
}

pub struct Renewals {
    replies: Arc<Bucket>,
    checkpoints: Arc<Bucket>,
    events: Client,
}

impl Renewals {
    /// Manual renewal from the dashboard; the browser generates the Idempotency-Key.
    pub async fn renew_now(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str, sub: &str) -> anyhow::Result<Vec<u8>> {
        let key = headers
            .get(http::header::HeaderName::from_static("idempotency-key"))
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("Idempotency-Key required"))?;
        let sk = scoped(tenant_id, user_id, "subscriptions.renew", key)?;
        if let Some(prev) = self.replies.get(sk.storage_key()).await? {
            return Ok(prev);
        }
        let body = format!(r#"{{"renewed":"{}"}}"#, sub).into_bytes();
        self.replies.put(sk.storage_key(), &body).await?;
        Ok(body)
    }

    pub async fn follow(&self) -> anyhow::Result<()> {
        let options = SubscribeToStreamOptions::default().start_from_beginning();
        let mut sub = self.events.subscribe_to_stream("renewals-due", &options).await;
        loop {
            let resolved = sub.next().await?;
            let event = resolved.get_original_event();
            let due: RenewalDue = event.as_json()?;
            let server_key = format!("replay:{}:{}:{}:{}", due.tenant_id, due.actor, "subscriptions.renew", event.id);
            if self.replies.get(&server_key).await?.is_none() {
                let body = format!(r#"{{"renewed":"{}","period":{}}}"#, due.subscription_id, due.period).into_bytes();
                self.replies.put(&server_key, &body).await?;
            }
            let checkpoint = format!("checkpoint:{}", event.stream_id);
            self.checkpoints.put(&checkpoint, event.revision.to_string().as_bytes()).await?;
        }
    }
}
