use std::sync::Arc;
use std::time::Duration;

use delay_timer::prelude::*;
use idem_scope::Namespace;
use larder::keys::KeyParts;
use larder::pantry::Pantry;

pub struct Redeliveries {
    attempts: Arc<Pantry>,
    timer: DelayTimer,
}

pub struct ReplayOrder {
    pub replay_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub endpoint_id: String,
}

impl Redeliveries {
    /// POST /v1/webhook_endpoints/{id}/redeliver from the customer dashboard.
    pub async fn customer_redeliver(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str, endpoint_id: &str) -> anyhow::Result<bool> {
        let client_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let slot = KeyParts { ns: Namespace::Client, tenant: tenant_id, principal: user_id, route: "webhooks.redeliver", key: client_key }.render()?;
        self.schedule_once(slot, endpoint_id).await
    }

    /// Support console: replays a batch of failed deliveries for one tenant.
    pub async fn operator_replay(&self, orders: Vec<ReplayOrder>) -> anyhow::Result<usize> {
        let mut scheduled = 0;
        for order in &orders {
            let slot = KeyParts { ns: Namespace::Client, tenant: &order.tenant_id, principal: &order.user_id, route: "webhooks.redeliver", key: &order.replay_id }.render()?;
            if self.schedule_once(slot, &order.endpoint_id).await? {
                scheduled += 1;
            }
        }
        Ok(scheduled)
    }

    async fn schedule_once(&self, slot: String, endpoint_id: &str) -> anyhow::Result<bool> {
        if self.attempts.exists(&slot).await? {
            return Ok(false);
        }
        self.attempts.put(&slot, endpoint_id.as_bytes(), Duration::from_secs(86_400)).await?;

        let endpoint = endpoint_id.to_owned();
        let task = TaskBuilder::default()
            .set_task_id(fastrand::u64(..))
            .set_frequency_once_by_seconds(5)
            .spawn_async_routine(move || {
                let endpoint = endpoint.clone();
                async move { crate::delivery::send_pending(&endpoint).await }
            })?;
        self.timer.add_task(task)?;
        Ok(true)
    }
}
