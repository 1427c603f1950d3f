use std::sync::Arc;
use std::time::Duration;

use anyhow::ensure;
use cairn::kv::Bucket;
use cloud_pubsub::{Client, EncodedMessage, FromPubSubMessage, Subscription};
use idem_scope::scoped_server;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct FulfilOrder {
    tenant_id: String,
    actor: String,
    order_id: String,
    quantity: u32,
}

impl FromPubSubMessage for FulfilOrder {
    fn from(message: EncodedMessage) -> Result<Self, cloud_pubsub::error::Error> {
        message.decode().and_then(|bytes| serde_json::from_slice(&bytes).map_err(Into::into))
    }
}

pub struct Fulfilment {
    records: Arc<Bucket>,
    stock: Arc<Bucket>,
}

impl Fulfilment {
    pub async fn pump(&self, sub: Subscription) -> anyhow::Result<()> {
        loop {
            for (result, ack_id) in sub.get_messages::<FulfilOrder>().await? {
                let message_id = ack_id.clone();
                if let Ok(order) = result {
                    self.fulfil(&message_id, order).await?;
                }
                sub.acknowledge_messages(vec![ack_id]).await;
            }
        }
    }

    async fn fulfil(&self, message_id: &str, order: FulfilOrder) -> anyhow::Result<()> {
        let sk = scoped_server(&order.tenant_id, &order.actor, "orders.fulfil", message_id)?;
        self.records.try_claim(sk.storage_key(), Duration::from_secs(60)).await?;
        let on_hand: u32 = self.stock.get_u32(&order.order_id).await?.unwrap_or(0);
        ensure!(on_hand >= order.quantity, "order {} short by {}", order.order_id, order.quantity - on_hand);
        self.stock.put_u32(&order.order_id, on_hand - order.quantity).await?;
        self.records.complete(sk.storage_key(), b"fulfilled").await?;
        Ok(())
    }
}

pub async fn connect(creds: &str) -> anyhow::Result<Subscription> {
    let client = Client::new(creds.to_owned()).await?;
    Ok(client.subscribe("fulfilment-worker".to_owned()))
}
