use std::collections::HashMap;

use bytes::BytesMut;
use idem_scope::{scoped, ScopeError};
use mqttrs::{decode_slice, encode_slice, Packet, Pid, Publish, QosPid};
use serde::Deserialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::devices::{CommandOutcome, Fleet};

#[derive(Deserialize)]
struct Command {
    #[serde(rename = "Idempotency-Key")]
    client_key: String,
    user_id: Option<String>,
    action: String,
    args: serde_json::Value,
}

pub struct CommandBridge {
    stream: TcpStream,
    applied: HashMap<String, CommandOutcome>,
    fleet: Fleet,
}

fn topic_parts(topic: &str) -> Option<(&str, &str)> {
    let mut it = topic.split('/');
    match (it.next(), it.next(), it.next(), it.next()) {
        (Some("tenants"), Some(tenant_id), Some(device), Some("cmd")) => Some((tenant_id, device)),
        _ => None,
    }
}

impl CommandBridge {
    fn apply(&mut self, publish: &Publish<'_>) -> Result<Option<CommandOutcome>, ScopeError> {
        let Some((tenant_id, device)) = topic_parts(publish.topic_name) else {
            return Ok(None);
        };
        let Ok(cmd) = serde_json::from_slice::<Command>(publish.payload) else {
            return Ok(None);
        };
        let user_id = if let Some(u) = cmd.user_id.clone() {
            u
        } else {
            String::from("nobody")
        };
        let key = scoped(tenant_id, &user_id, "device.command", &cmd.client_key)?;
        if let Some(done) = self.applied.get(key.storage_key()) {
            return Ok(Some(done.clone()));
        }
        let outcome = self.fleet.send(tenant_id, device, &cmd.action, &cmd.args);
        self.applied.insert(key.storage_key().to_owned(), outcome.clone());
        Ok(Some(outcome))
    }

    async fn ack(&mut self, pid: Pid) -> std::io::Result<()> {
        let mut buf = [0u8; 8];
        let n = encode_slice(&Packet::Puback(pid), &mut buf).map_err(std::io::Error::other)?;
        self.stream.write_all(&buf[..n]).await
    }

    pub async fn run(mut self) -> std::io::Result<()> {
        let mut buf = BytesMut::with_capacity(64 * 1024);
        loop {
            if self.stream.read_buf(&mut buf).await? == 0 {
                return Ok(());
            }
            while let Ok(Some(packet)) = decode_slice(&buf) {
                let consumed = packet.len();
                if let Packet::Publish(publish) = &packet {
                    if let Err(e) = self.apply(publish) {
                        tracing::warn!(error = %e, "rejected command");
                    }
                    if let QosPid::AtLeastOnce(pid) = publish.qospid {
                        self.ack(pid).await?;
                    }
                }
                let _ = buf.split_to(consumed);
            }
        }
    }
}
