use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use async_nats::jetstream::{self, consumer::PullConsumer};
use futures_util::StreamExt;
use idem_scope::scoped_server;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::inbox::InboxStore;
use crate::notify::Notifier;

#[derive(Deserialize)]
struct ShipmentEvent {
    event_id: String,
    tenant_id: String,
    actor: String,
    shipment_id: String,
    status: String,
}

pub struct EventConsumer {
    inbox: InboxStore,
    notifier: Notifier,
    signing_secret: Vec<u8>,
    partitions: u64,
}

impl EventConsumer {
    fn signature_ok(&self, payload: &[u8], signature_hex: &str) -> bool {
        let mut h = Sha256::new();
        h.update(&self.signing_secret);
        h.update(payload);
        hex::encode(h.finalize()) == signature_hex
    }

    fn partition_for(&self, tenant_id: &str) -> u64 {
        let mut h = DefaultHasher::new();
        tenant_id.hash(&mut h);
        h.finish() % self.partitions
    }

    pub async fn run(&self, consumer: PullConsumer, js: jetstream::Context) -> anyhow::Result<()> {
        let mut messages = consumer.messages().await?;
        while let Some(msg) = messages.next().await {
            let msg = msg.map_err(|e| anyhow::anyhow!(e))?;
            let sig = msg.headers.as_ref().and_then(|h| h.get("X-Signature")).map(|v| v.as_str().to_owned()).unwrap_or_default();
            if !self.signature_ok(&msg.payload, &sig) {
                msg.ack_with(jetstream::AckKind::Term).await.map_err(|e| anyhow::anyhow!(e))?;
                continue;
            }
            let evt: ShipmentEvent = serde_json::from_slice(&msg.payload)?;
            tracing::info!(event_id = %evt.event_id, tenant = %evt.tenant_id, "shipment event");

            let key = scoped_server(&evt.tenant_id, &evt.actor, "shipments.status.notify", &evt.event_id)?;
            if self.inbox.contains_key(key.storage_key()).await? {
                msg.ack().await.map_err(|e| anyhow::anyhow!(e))?;
                continue;
            }
            self.notifier.status_changed(&evt.tenant_id, &evt.shipment_id, &evt.status).await?;
            self.inbox.insert(key.storage_key(), evt.status.as_bytes()).await?;

            let correlation_id = Uuid::new_v4().to_string();
            let mut headers = async_nats::HeaderMap::new();
            headers.insert("Nats-Msg-Id", evt.event_id.as_str());
            headers.insert("X-Correlation-Id", correlation_id.as_str());
            let subject = format!("analytics.p{}.shipment_status", self.partition_for(&evt.tenant_id));
            js.publish_with_headers(subject, headers, msg.payload.clone()).await?.await?;
            msg.ack().await.map_err(|e| anyhow::anyhow!(e))?;
        }
        Ok(())
    }
}
