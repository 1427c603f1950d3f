use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, scoped_server, ScopeError, ScopedKey};
use larder::pantry::Pantry;
use rquest::Client;

pub struct DomainEvent {
    pub id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub kind: String,
    pub payload: serde_json::Value,
}

pub struct Fanout {
    http: Client,
    sent: Arc<Pantry>,
    partner_url: String,
}

fn delivery_key(ev: &DomainEvent) -> Result<ScopedKey, ScopeError> {
    scoped_server(&ev.tenant_id, &ev.user_id, "partner.notify", &ev.id)
}

impl Fanout {
    /// Domain events are pushed to the partner once per event id.
    pub async fn push(&self, ev: &DomainEvent) -> anyhow::Result<()> {
        let key = delivery_key(ev)?;
        if self.sent.exists(key.storage_key()).await? {
            tracing::debug!(event = %ev.id, "already delivered");
            return Ok(());
        }
        self.http
            .post(&self.partner_url)
            .header("Idempotency-Key", ev.id.as_str())
            .json(&serde_json::json!({ "type": ev.kind, "data": ev.payload }))
            .timeout(Duration::from_secs(10))
            .send()
            .await?
            .error_for_status()?;
        self.sent.put(key.storage_key(), b"delivered", Duration::from_secs(14 * 86_400)).await?;
        Ok(())
    }

    /// Customers can re-send a notification from the dashboard.
    pub async fn resend(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str, ev: &DomainEvent) -> anyhow::Result<()> {
        let k = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or_else(|| anyhow::anyhow!("missing key"))?;
        let key = scoped(tenant_id, user_id, "partner.notify", k)?;
        if self.sent.exists(key.storage_key()).await? {
            return Ok(());
        }
        self.http.post(&self.partner_url).json(&ev.payload).send().await?.error_for_status()?;
        self.sent.put(key.storage_key(), b"resent", Duration::from_secs(86_400)).await?;
        Ok(())
    }
}
