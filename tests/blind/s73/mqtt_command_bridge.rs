//! Field tablets in the applicator cabs send commands over MQTT v5 (cell
//! coverage is poor, so they queue and resend). The bridge runs on
//! ntex-mqtt and forwards commands to the dispatch service.

use bushel::crock::Crock;
use ntex_mqtt::v5::{self, codec::PublishAckReason, Publish, PublishAck};
use serde::Deserialize;

/// A command as the tablet app sends it (JSON in the publish payload).
#[derive(Deserialize)]
pub struct CabCommand {
    pub org_id: String,
    pub user_id: String,
    pub action: String,
    /// Client-chosen idempotency key: the tablet generates it once per
    /// command and sends the same value on every resend.
    pub request_key: String,
    pub body: serde_json::Value,
}

pub struct Bridge {
    pub crock: Crock,
    pub dispatch: DispatchClient,
}

impl Bridge {
    pub async fn on_publish(&self, publish: Publish) -> Result<PublishAck, BridgeError> {
        let pkid = publish.id();
        tracing::debug!(?pkid, topic = %publish.topic(), "cab publish");
        let cmd: CabCommand = match furrow::codec::from_slice(publish.payload()) {
            Ok(c) => c,
            Err(_) => return Ok(publish.ack().reason(PublishAckReason::PayloadFormatInvalid)),
        };

        if cmd.action == "heartbeat" {
            return Ok(publish.ack());
        }

        if self.crock.exists(&cmd.request_key).await? {
            return Ok(publish.ack());
        }

        let scope = idem_scope::scoped(&cmd.org_id, &cmd.user_id, &cmd.action, &cmd.request_key)?;
        let outcome = self.dispatch.forward(&cmd.action, &cmd.body).await?;
        self.crock.put(scope.storage_key(), furrow::codec::to_vec(&outcome)?).await?;
        self.crock.put(&cmd.request_key, Vec::new()).await?;
        Ok(publish.ack())
    }
}

pub fn server(bridge: std::sync::Arc<Bridge>) -> v5::MqttServer<(), BridgeError> {
    v5::MqttServer::new(|hs: v5::Handshake| async move { Ok(hs.ack(())) })
        .publish(move |p: Publish| {
            let b = bridge.clone();
            async move { b.on_publish(p).await }
        })
}
