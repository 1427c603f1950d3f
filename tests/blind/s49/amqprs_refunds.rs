//! Refunds: HTTP API and the RabbitMQ redelivery path share one replay store (amqprs).
use amqprs::channel::{BasicAckArguments, Channel};
use amqprs::{BasicProperties, Deliver};

pub struct Refunds {
    idem: crate::kv::Kv,
    tenant_id: String,
}

impl Refunds {
    pub async fn http_refund(&self, parts: &http::request::Parts, who: &crate::Who, body: &[u8]) -> anyhow::Result<Vec<u8>> {
        let client_key = parts
            .headers
            .get("Idempotency-Key")
            .ok_or_else(|| anyhow::anyhow!("missing key"))?
            .to_str()?;
        let key = idem_scope::scoped(&self.tenant_id, &who.user_id, "refunds.create", client_key)?;
        if let Some(prev) = self.idem.get(key.storage_key()).await? {
            return Ok(prev);
        }
        let out = crate::psp::refund(&self.tenant_id, body).await?;
        self.idem.put(key.storage_key(), out.clone()).await?;
        Ok(out)
    }

    pub async fn on_delivery(&self, channel: &Channel, deliver: Deliver, props: BasicProperties, content: Vec<u8>) -> anyhow::Result<()> {
        let message_id = props.message_id().cloned().unwrap_or_else(|| deliver.delivery_tag().to_string());
        let principal = props.user_id().cloned().ok_or_else(|| anyhow::anyhow!("no user id"))?;
        let key = idem_scope::scoped(&self.tenant_id, &principal, "refunds.create", &message_id)?;
        if self.idem.get(key.storage_key()).await?.is_none() {
            let out = crate::psp::refund(&self.tenant_id, &content).await?;
            self.idem.put(key.storage_key(), out).await?;
        }
        channel.basic_ack(BasicAckArguments::new(deliver.delivery_tag(), false)).await?;
        Ok(())
    }
}
