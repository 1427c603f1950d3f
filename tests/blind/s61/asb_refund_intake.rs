use std::sync::Arc;
use std::time::Duration;

use azservicebus::prelude::*;
use azservicebus::ServiceBusReceivedMessage;
use http::HeaderMap;
use idem_scope::{scoped, Problem, ScopedKey};
use larder::pantry::Pantry;
use serde::Deserialize;

const RESULT_TTL: Duration = Duration::from_secs(3 * 86_400);

#[derive(Deserialize)]
struct RefundCommand {
    tenant_id: String,
    payment_id: String,
    amount_minor: i64,
}

#[derive(Clone)]
pub struct RefundIntake {
    records: Arc<Pantry>,
}

impl RefundIntake {
    /// HTTP path: POST /v1/refunds, the caller is already authenticated.
    pub async fn from_http(&self, headers: &HeaderMap, tenant_id: &str, user_id: &str, body: &[u8]) -> Result<Vec<u8>, Problem> {
        let client_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(Problem::missing_key)?;
        let key = scoped(tenant_id, user_id, "refund", client_key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let cmd: RefundCommand = serde_json::from_slice(body).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.execute(&key, &cmd).await.map_err(|_| Problem::in_progress(client_key))
    }

    /// Queue path: the billing service publishes refunds for disputed charges.
    pub async fn from_bus(&self, receiver: &mut ServiceBusReceiver, msg: ServiceBusReceivedMessage) -> anyhow::Result<()> {
        let cmd: RefundCommand = serde_json::from_slice(msg.body()?)?;
        let actor = "dispute-bot";
        let message_id = msg.message_id().ok_or_else(|| anyhow::anyhow!("message without id"));
        let key = message_id.and_then(|id| scoped(&cmd.tenant_id, actor, "refund", id).map_err(anyhow::Error::from))?;
        self.execute(&key, &cmd).await?;
        receiver.complete_message(&msg).await?;
        Ok(())
    }

    async fn execute(&self, key: &ScopedKey, cmd: &RefundCommand) -> anyhow::Result<Vec<u8>> {
        if let Some(prev) = self.records.get(key.storage_key()).await? {
            return Ok(prev);
        }
        let out = serde_json::to_vec(&serde_json::json!({
            "payment": cmd.payment_id,
            "refunded_minor": cmd.amount_minor,
        }))?;
        self.records.put(key.storage_key(), &out, RESULT_TTL).await?;
        Ok(out)
    }
}
