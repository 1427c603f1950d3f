use std::sync::Arc;

use futures::StreamExt;
use idem_scope::{scoped, scoped_server};
use rabbitmq_stream_client::types::OffsetSpecification;
use rabbitmq_stream_client::Environment;
use serde::Deserialize;

use crate::replies::ReplyStore;

#[derive(Deserialize)]
struct PaymentCommand {
    tenant_id: String,
    actor: String,
    amount_minor: i64,
}

pub struct PaymentReplayer {
    replies: Arc<ReplyStore>,
}

impl PaymentReplayer {
    /// Called by the HTTP layer once the client key has been validated.
    pub async fn accept_from_api(
        &self,
        headers: &http::HeaderMap,
        tenant_id: &str,
        user_id: &str,
        body: &[u8],
    ) -> anyhow::Result<()> {
        let client_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing key"))?;
        let sk = scoped(tenant_id, user_id, "payments.execute", client_key)?;
        self.replies.put(sk.storage_key(), body).await?;
        Ok(())
    }

    pub async fn run(&self, env: Environment) -> anyhow::Result<()> {
        let mut consumer = env
            .consumer()
            .offset(OffsetSpecification::Next)
            .build("payments.commands")
            .await?;
        while let Some(delivery) = consumer.next().await {
            let delivery = delivery?;
            let message = delivery.message();
            let Some(message_id) = message
                .properties()
                .and_then(|p| p.message_id.as_ref())
                .map(|id| id.to_string())
            else {
                continue;
            };
            let Some(data) = message.data() else { continue };
            let cmd: PaymentCommand = serde_json::from_slice(data)?;
            let sk = scoped(&cmd.tenant_id, &cmd.actor, "payments.execute", &message_id)?;
            if self.replies.get(sk.storage_key()).await?.is_some() {
                continue;
            }
            self.replies.put(sk.storage_key(), data).await?;
            tracing::debug!(amount = cmd.amount_minor, "executed from stream");
        }
        Ok(())
    }

    pub async fn redrive_dead_letter(&self, tenant_id: &str, actor: &str, dead_letter_id: &str, data: &[u8]) -> anyhow::Result<()> {
        let sk = scoped_server(tenant_id, actor, "payments.execute", dead_letter_id)?;
        self.replies.put(sk.storage_key(), data).await?;
        Ok(())
    }
}
