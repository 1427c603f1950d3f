use std::sync::Arc;

use hedwig::{Headers, ValidatedMessage};
use idem_scope::{scoped, ScopeError, ScopedKey};
use larder::pantry::Pantry;
use serde::Deserialize;

type MakeKey = Box<dyn Fn(&str, &str, &str) -> Result<ScopedKey, ScopeError> + Send + Sync>;

#[derive(Deserialize)]
struct PlanChange {
    account_id: String,
    plan: String,
    seats: u32,
}

pub struct SubscriptionSync {
    applied: Arc<Pantry>,
    make_key: MakeKey,
}

impl SubscriptionSync {
    pub fn new(applied: Arc<Pantry>) -> Self {
        Self {
            applied,
            make_key: Box::new(|account, principal, k| scoped(account, principal, "subscriptions.change_plan", k)),
        }
    }

    /// Customer portal: PUT /v1/subscription with an Idempotency-Key header.
    pub async fn change_from_portal(&self, headers: &http::HeaderMap, user_id: &str, body: &[u8]) -> anyhow::Result<()> {
        let change: PlanChange = serde_json::from_slice(body)?;
        let client_key = headers
            .get(http::header::HeaderName::from_static("idempotency-key"))
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?
            .to_str()?;
        let key = (self.make_key)(&change.account_id, user_id, client_key)?;
        self.apply_once(&key, &change).await
    }

    /// Billing provider events relayed through Pub/Sub (hedwig envelope).
    pub async fn change_from_event(&self, message: ValidatedMessage<bytes::Bytes>) -> anyhow::Result<()> {
        let change: PlanChange = serde_json::from_slice(message.data())?;
        let headers: &Headers = message.headers();
        let principal = headers.get("billing-actor").map(String::as_str).unwrap_or("billing-sync");
        let event_id = message.uuid().to_string();
        let key = (self.make_key)(&change.account_id, principal, &event_id)?;
        self.apply_once(&key, &change).await
    }

    async fn apply_once(&self, key: &ScopedKey, change: &PlanChange) -> anyhow::Result<()> {
        if self.applied.get(key.storage_key()).await?.is_some() {
            return Ok(());
        }
        tracing::info!(plan = %change.plan, seats = change.seats, "applying plan change");
        self.applied
            .put(key.storage_key(), change.plan.as_bytes(), std::time::Duration::from_secs(7 * 86_400))
            .await?;
        Ok(())
    }
}
