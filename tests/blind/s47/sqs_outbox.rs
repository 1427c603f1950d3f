use aws_sdk_sqs::types::MessageAttributeValue;
use aws_sdk_sqs::Client;
use serde::Serialize;
use sha3::{Digest, Sha3_256};

pub struct Outbox {
    pub sqs: Client,
    pub queue_url: String,
}

#[derive(Serialize)]
pub struct OrderPlaced<'a> {
    pub event_id: &'a str,
    pub tenant_id: &'a str,
    pub order_id: &'a str,
    pub total_cents: i64,
}

impl Outbox {
    pub async fn publish(&self, evt: &OrderPlaced<'_>) -> anyhow::Result<()> {
        let body = serde_json::to_string(evt)?;
        self.sqs
            .send_message()
            .queue_url(&self.queue_url)
            .message_group_id(evt.tenant_id)
            .message_deduplication_id(evt.event_id)
            .message_body(body)
            .send()
            .await?;
        Ok(())
    }

    pub async fn publish_raw(&self, tenant_id: &str, payload: &[u8]) -> anyhow::Result<()> {
        let content_dedup = hex::encode(Sha3_256::digest(payload));
        self.sqs
            .send_message()
            .queue_url(&self.queue_url)
            .message_group_id(tenant_id)
            .message_deduplication_id(content_dedup)
            .message_body(String::from_utf8_lossy(payload))
            .send()
            .await?;
        Ok(())
    }

    pub async fn forward_command(&self, headers: &http::HeaderMap, tenant_id: &str, body: String) -> anyhow::Result<()> {
        let client_key = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        let attr = MessageAttributeValue::builder().data_type("String").string_value(client_key).build()?;
        self.sqs
            .send_message()
            .queue_url(&self.queue_url)
            .message_group_id(tenant_id)
            .message_attributes("idempotency_key", attr)
            .message_body(body)
            .send()
            .await?;
        Ok(())
    }
}
