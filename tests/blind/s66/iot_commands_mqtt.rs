use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use nanoserde::DeJson;
use rumqtt::{MqttClient, Notification, QoS, Receiver};
use skerry::stash::Stash;

use crate::devices::{CommandSpec, DeviceIndex};

#[derive(DeJson)]
struct AckFrame {
    event_id: String,
    command: String,
    result: String,
}

pub struct DeviceCommands {
    stash: Arc<Stash>,
    mqtt: MqttClient,
    devices: Arc<DeviceIndex>,
}

impl DeviceCommands {
    pub async fn send(&mut self, call: Call, device: &str) -> Answer {
        let Some(who) = call.identity() else { return Answer::status(Code::UNAUTHORIZED) };
        let Some(key) = call.header("Idempotency-Key") else { return Answer::problem(Problem::missing_key()) };
        let Ok(spec) = call.json::<CommandSpec>() else { return Answer::status(Code::BAD_REQUEST) };
        let slot = match scoped(&who.tenant_id, &who.user_id, "device_command", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let topic = format!("t/{}/d/{}/cmd", who.tenant_id, device);
        if self.mqtt.publish(topic, QoS::AtLeastOnce, false, spec.encode()).is_err() {
            return Answer::status(Code::SERVICE_UNAVAILABLE);
        }
        let _ = self.stash.put(slot.storage_key(), b"{\"queued\":true}").await;
        Answer::status(Code::ACCEPTED)
    }

    pub async fn pump_acks(&self, notifications: Receiver<Notification>) {
        for notification in notifications {
            let Notification::Publish(publish) = notification else { continue };
            let Some(dev) = self.devices.by_ack_topic(&publish.topic_name) else { continue };
            let Ok(ack) = AckFrame::deserialize_json(&String::from_utf8_lossy(&publish.payload)) else { continue };
            let event_id = ack.event_id.clone();
            let Ok(slot) = scoped(&dev.tenant_id, &dev.client_id, "device_command", &event_id) else { continue };
            if let Ok(Some(_)) = self.stash.get(slot.storage_key()).await {
                continue;
            }
            let record = format!("{{\"command\":\"{}\",\"result\":\"{}\"}}", ack.command, ack.result);
            let _ = self.stash.put(slot.storage_key(), record.as_bytes()).await;
        }
    }
}
