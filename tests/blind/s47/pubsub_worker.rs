use fred::prelude::*;
use fred::types::Expiration;
use google_cloud_pubsub::client::Client as PubSub;
use google_cloud_pubsub::subscriber::ReceivedMessage;
use idem_scope::scoped;
use serde::Deserialize;
use viz::{Request, RequestExt, Response, ResponseExt, Result, StatusCode};

#[derive(Clone)]
pub struct Replays {
    pub kv: RedisClient,
}

#[derive(Deserialize)]
pub struct ShipmentEvent {
    pub tenant_id: String,
    pub actor: String,
    pub shipment: String,
}

impl Replays {
    pub async fn api_ship(&self, req: &Request) -> Result<Response> {
        let tenant: String = req.header("x-tenant-id").ok_or(StatusCode::UNAUTHORIZED)?;
        let user_id: String = req.header("x-user-id").ok_or(StatusCode::UNAUTHORIZED)?;
        let key: String = req.header("Idempotency-Key").ok_or(StatusCode::BAD_REQUEST)?;
        let sk = scoped(&tenant, &user_id, "shipments.create", &key).map_err(|_| StatusCode::BAD_REQUEST)?;
        let prev: Option<String> = self.kv.get(sk.storage_key()).await.map_err(|_| StatusCode::BAD_GATEWAY)?;
        if let Some(p) = prev {
            return Ok(Response::text(p));
        }
        let out = "{\"shipped\":true}".to_string();
        let _: () = self.kv.set(sk.storage_key(), out.as_str(), Some(Expiration::EX(86_400)), None, false).await.map_err(|_| StatusCode::BAD_GATEWAY)?;
        Ok(Response::text(out))
    }

    async fn handle(&self, m: &ReceivedMessage) -> anyhow::Result<()> {
        let evt: ShipmentEvent = serde_json::from_slice(&m.message.data)?;
        let sk = scoped(&evt.tenant_id, &evt.actor, "shipments.create", &m.message.message_id)?;
        let done: Option<String> = self.kv.get(sk.storage_key()).await?;
        if done.is_some() {
            return Ok(());
        }
        tracing::info!(message_id = %m.message.message_id, shipment = %evt.shipment, "processing");
        let _: () = self.kv.set(sk.storage_key(), "processed", Some(Expiration::EX(604_800)), None, false).await?;
        Ok(())
    }

    pub async fn run(self, pubsub: PubSub) -> anyhow::Result<()> {
        let sub = pubsub.subscription("shipments-worker");
        let mut stream = sub.subscribe(None).await?;
        while let Some(m) = futures::StreamExt::next(&mut stream).await {
            match self.handle(&m).await {
                Ok(()) => m.ack().await?,
                Err(e) => {
                    tracing::warn!(error = %e, message_id = %m.message.message_id, "nack");
                    m.nack().await?;
                }
            }
        }
        Ok(())
    }
}
