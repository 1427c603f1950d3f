use std::collections::HashMap;
use std::time::Duration;

use rumqttc::{AsyncClient, Event, MqttOptions, Packet, QoS};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct DeviceCommand {
    pub device_id: String,
    pub action: String,
    /// Client-chosen idempotency key; a retried command carries the same value.
    pub dedupe_id: String,
    pub args: serde_json::Value,
}

pub struct DeviceRecord {
    pub tenant_id: String,
    pub owner_user_id: Option<String>,
}

pub struct CommandRouter {
    registry: DeviceRegistry,
    applied: HashMap<(String, String, String, String), CommandAck>,
    client: AsyncClient,
}

impl CommandRouter {
    pub async fn run(mut self, mut eventloop: rumqttc::EventLoop) -> Result<(), RouterError> {
        self.client.subscribe("tenants/+/commands", QoS::AtLeastOnce).await?;
        loop {
            match eventloop.poll().await {
                Ok(Event::Incoming(Packet::Publish(p))) => {
                    let cmd: DeviceCommand = match serde_json::from_slice(&p.payload) {
                        Ok(c) => c,
                        Err(e) => {
                            tracing::warn!(topic = %p.topic, error = %e, "dropping malformed command");
                            continue;
                        }
                    };
                    self.apply(cmd).await?;
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::error!(error = %e, "mqtt connection error");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }

    async fn apply(&mut self, cmd: DeviceCommand) -> Result<(), RouterError> {
        let dev = self.registry.get(&cmd.device_id).await?.ok_or(RouterError::UnknownDevice)?;
        let user_id = dev.owner_user_id.clone().unwrap_or_else(|| "shared".into());
        let slot = (dev.tenant_id.clone(), user_id, cmd.action.clone(), cmd.dedupe_id.clone());
        if let Some(ack) = self.applied.get(&slot) {
            self.publish_ack(&cmd.device_id, ack).await?;
            return Ok(());
        }
        let ack = self.registry.send(&cmd.device_id, &cmd.action, &cmd.args).await?;
        self.publish_ack(&cmd.device_id, &ack).await?;
        self.applied.insert(slot, ack);
        Ok(())
    }

    async fn publish_ack(&self, device_id: &str, ack: &CommandAck) -> Result<(), RouterError> {
        let topic = format!("devices/{}/acks", device_id);
        self.client.publish(topic, QoS::AtLeastOnce, false, serde_json::to_vec(ack)?).await?;
        Ok(())
    }
}

pub fn options(client_id: &str) -> MqttOptions {
    let mut o = MqttOptions::new(client_id, "mqtt.internal", 1883);
    o.set_keep_alive(Duration::from_secs(15));
    o
}
