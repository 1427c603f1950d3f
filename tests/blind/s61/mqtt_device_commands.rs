use bytes::BytesMut;
use lockfree::map::Map;
use mqttbytes::v5::{read, ConnAck, Connect, Packet, PubAck, Publish};
use mqttbytes::QoS;

type CommandKey = (String, String, &'static str, String);

pub struct DeviceSession {
    pub client_id: Option<String>,
    pub tenant_id: String,
}

pub struct CommandGateway {
    seen: Map<CommandKey, Vec<u8>>,
}

fn user_property<'a>(publish: &'a Publish, name: &str) -> Option<&'a str> {
    publish
        .properties
        .as_ref()?
        .user_properties
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

impl CommandGateway {
    pub fn on_connect(&self, connect: &Connect, tenant_id: &str) -> DeviceSession {
        let client_id = (!connect.client_id.is_empty()).then(|| connect.client_id.clone());
        DeviceSession { client_id, tenant_id: tenant_id.to_owned() }
    }

    pub fn on_publish(&self, session: &DeviceSession, publish: &Publish) -> Option<Vec<u8>> {
        let idem = user_property(publish, "Idempotency-Key")?.to_owned();
        let qos = if publish.qos == QoS::AtMostOnce { "fire-and-forget" } else { "acked" };
        let client_id = if let Some(c) = session.client_id.clone() {
            c
        } else {
            Default::default()
        };

        let slot: CommandKey = (session.tenant_id.clone(), client_id, "device.command", idem);
        if let Some(prev) = self.seen.get(&slot) {
            return Some(prev.val().clone());
        }
        let outcome = format!("{{\"topic\":\"{}\",\"delivery\":\"{}\"}}", publish.topic, qos).into_bytes();
        self.seen.insert(slot, outcome.clone());
        Some(outcome)
    }

    pub fn pump(&self, session: &DeviceSession, buf: &mut BytesMut, out: &mut BytesMut) -> Result<(), mqttbytes::Error> {
        while let Ok(packet) = read(buf, 256 * 1024) {
            if let Packet::Publish(p) = packet {
                let _ = self.on_publish(session, &p);
                if p.qos != QoS::AtMostOnce {
                    PubAck::new(p.pkid).write(out)?;
                }
            }
        }
        Ok(())
    }
}

pub fn accept(out: &mut BytesMut) -> Result<usize, mqttbytes::Error> {
    ConnAck::new(mqttbytes::v5::ConnectReturnCode::Success, false).write(out)
}
