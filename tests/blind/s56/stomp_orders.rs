use std::sync::Arc;

use async_stomp::client::Connector;
use async_stomp::{FromServer, Message, ToServer};
use bytes::Bytes;
use dashmap::mapref::entry::Entry;
use dashmap::DashMap;
use futures::{SinkExt, StreamExt};
use idem_scope::scoped;

#[derive(Clone)]
pub struct OrderIntake {
    outcomes: Arc<DashMap<String, Bytes>>,
    orders: crate::orders::OrderService,
}

impl OrderIntake {
    pub async fn from_http(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, body: Bytes) -> anyhow::Result<Bytes> {
        let key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("Idempotency-Key is required"))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "orders.submit", key)?;
        match self.outcomes.entry(sk.storage_key().to_owned()) {
            Entry::Occupied(done) => Ok(done.get().clone()),
            Entry::Vacant(slot) => {
                let out = Bytes::from(serde_json::to_vec(&self.orders.submit(&caller.tenant_id, &body).await?)?);
                slot.insert(out.clone());
                Ok(out)
            }
        }
    }

    async fn from_broker(&self, msg: Message<FromServer>) -> anyhow::Result<()> {
        let FromServer::Message { message_id, body, .. } = msg.content else {
            return Ok(());
        };
        let body = Bytes::from(body.unwrap_or_default());
        let submission: crate::orders::PartnerOrder = serde_json::from_slice(&body)?;
        match self.outcomes.entry(message_id.clone()) {
            Entry::Occupied(_) => {
                log::debug!("partner order {message_id} already submitted");
                Ok(())
            }
            Entry::Vacant(slot) => {
                let placed = self.orders.submit(&submission.tenant_id, &body).await?;
                slot.insert(Bytes::from(serde_json::to_vec(&placed)?));
                Ok(())
            }
        }
    }

    pub async fn listen(&self, addr: &str) -> anyhow::Result<()> {
        let mut conn = Connector::builder()
            .server(addr)
            .virtualhost("/")
            .login("orders".into())
            .passcode(std::env::var("STOMP_PASSCODE")?)
            .connect()
            .await?;
        conn.send(ToServer::Subscribe { destination: "/queue/partner-orders".into(), id: "intake".into(), ack: None }.into())
            .await?;
        while let Some(frame) = conn.next().await {
            if let Err(e) = self.from_broker(frame?).await {
                log::warn!("partner order failed: {e:#}");
            }
        }
        Ok(())
    }
}
