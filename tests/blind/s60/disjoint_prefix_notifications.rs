use gimbal::{Ctx, Json, Reply};
use idem_scope::scoped;
use pyxis::kv::Shelf;
use serde::Deserialize;

use crate::notify::{Channel, NotifyError, Notifier};

#[derive(Deserialize)]
pub struct SendRequest {
    pub channel: Channel,
    pub to: String,
    pub template: String,
}

#[derive(Deserialize)]
pub struct ProviderStatus {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub status: String,
}

pub struct Notifications {
    sent: Shelf,
    notifier: Notifier,
}

impl Notifications {
    pub async fn send(&self, ctx: Ctx, Json(req): Json<SendRequest>) -> Result<Reply, NotifyError> {
        let auth = ctx.auth();
        let k = ctx.header("Idempotency-Key").ok_or(NotifyError::MissingKey)?;
        let key = scoped(&auth.tenant_id, &auth.user_id, "notifications.send", k)?;
        let slot = format!("client/{}", key.storage_key());
        if let Some(prev) = self.sent.get(&slot).await? {
            return Ok(Reply::replay(prev));
        }
        let msg = self.notifier.send(&auth.tenant_id, req.channel, &req.to, &req.template).await?;
        self.sent.put(&slot, &msg.to_json()).await?;
        Ok(Reply::accepted(msg.to_json()))
    }

    pub async fn provider_status(&self, Json(status): Json<ProviderStatus>) -> Result<Reply, NotifyError> {
        let key = scoped(&status.tenant_id, &status.user_id, "notifications.status", &status.event_id)?;
        let slot = format!("provider-events/{}", key.storage_key());
        if self.sent.get(&slot).await?.is_some() {
            return Ok(Reply::status(200));
        }
        self.notifier.record_status(&status.tenant_id, &status.event_id, &status.status).await?;
        self.sent.put(&slot, status.status.as_bytes()).await?;
        Ok(Reply::status(200))
    }
}
