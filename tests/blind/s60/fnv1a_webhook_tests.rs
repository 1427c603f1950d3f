use const_fnv1a_hash::fnv1a_hash_64;
use gimbal::{Ctx, Json, Reply};
use idem_scope::{scoped, scoped_server};
use pyxis::kv::Shelf;
use serde::{Deserialize, Serialize};

use crate::webhooks::{Endpoint, Sender, WebhookError};

#[derive(Serialize, Deserialize, Clone)]
pub struct TestEvent {
    pub endpoint_id: String,
    pub event_type: String,
    pub sample: serde_json::Value,
}

pub struct WebhookTests {
    sent: Shelf,
    sender: Sender,
}

impl WebhookTests {
    pub async fn send_test(&self, ctx: Ctx, Json(event): Json<TestEvent>) -> Result<Reply, WebhookError> {
        let auth = ctx.auth();
        let key = serde_json::to_vec(&event)
            .map_err(WebhookError::from)
            .and_then(|bytes| {
                scoped(&auth.tenant_id, &auth.user_id, "webhooks.test", &format!("{:016x}", fnv1a_hash_64(&bytes, None)))
                    .map_err(WebhookError::from)
            })?;

        if let Some(prev) = self.sent.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }
        let endpoint: Endpoint = self.sender.endpoint(&auth.tenant_id, &event.endpoint_id).await?;
        let attempt_id = uuid::Uuid::new_v4().to_string();
        let delivery = self.sender.deliver(&endpoint, &attempt_id, &event.sample).await?;
        self.sent.put(key.storage_key(), &delivery.to_json()).await?;
        Ok(Reply::accepted(delivery.to_json()))
    }

    pub async fn redeliver(&self, ctx: Ctx, attempt_id: &str) -> Result<Reply, WebhookError> {
        let auth = ctx.auth();
        let key = scoped_server(&auth.tenant_id, &auth.user_id, "webhooks.redeliver", attempt_id)?;
        if let Some(prev) = self.sent.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }
        let delivery = self.sender.redeliver(&auth.tenant_id, attempt_id).await?;
        self.sent.put(key.storage_key(), &delivery.to_json()).await?;
        Ok(Reply::accepted(delivery.to_json()))
    }
}
