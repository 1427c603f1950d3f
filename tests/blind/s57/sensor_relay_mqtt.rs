use std::sync::Arc;

use mqtt_async_client::client::{Client, Publish, QoS, Subscribe, SubscribeTopic};
use serde::Deserialize;

use crate::alarms::{AlarmDesk, AlarmTicket};
use crate::replay::ReplayStore;

#[derive(Deserialize)]
struct AlarmFrame {
    tenant_id: String,
    user_id: String,
    delivery_id: Option<String>,
    zone: String,
    level: u8,
}

pub struct AlarmRelay {
    mqtt: Client,
    replays: Arc<ReplayStore>,
    desk: Arc<AlarmDesk>,
}

impl AlarmRelay {
    /// Operators acknowledge alarms from the console over HTTP.
    pub async fn open_ticket_http(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str, zone: &str) -> eyre::Result<AlarmTicket> {
        let client_key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).ok_or_else(|| eyre::eyre!("missing Idempotency-Key"))?;
        let key = idem_scope::scoped(tenant_id, user_id, "alarms.open", client_key)?;
        if let Some(t) = self.replays.get(key.storage_key()).await? {
            return Ok(serde_json::from_slice(&t)?);
        }
        let ticket = self.desk.open(tenant_id, zone, 3).await?;
        self.replays.put(key.storage_key(), &serde_json::to_vec(&ticket)?).await?;
        Ok(ticket)
    }

    pub async fn pump(&mut self) -> eyre::Result<()> {
        self.mqtt.subscribe(Subscribe::new(vec![SubscribeTopic { qos: QoS::AtLeastOnce, topic_path: "alarms/+".into() }])).await?;
        loop {
            let read = self.mqtt.read_subscriptions().await?;
            let frame: AlarmFrame = match serde_json::from_slice(read.payload()) {
                Ok(f) => f,
                Err(_) => continue,
            };
            let key = frame
                .delivery_id
                .as_deref()
                .and_then(|d| idem_scope::scoped(&frame.tenant_id, &frame.user_id, "alarms.open", d).ok());
            let Some(key) = key else { continue };
            if self.replays.get(key.storage_key()).await?.is_some() {
                continue;
            }
            let ticket = self.desk.open(&frame.tenant_id, &frame.zone, frame.level).await?;
            self.replays.put(key.storage_key(), &serde_json::to_vec(&ticket)?).await?;
            let ack = Publish::new(format!("alarms/acks/{}", frame.delivery_id.unwrap_or_default()), ticket.id.clone().into_bytes());
            self.mqtt.publish(&ack).await?;
        }
    }
}
