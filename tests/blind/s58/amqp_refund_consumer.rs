use amqp::protocol::basic::{BasicProperties, Deliver};
use amqp::{Basic, Channel, Consumer};
use cairn::sync_kv::SyncKv;
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
struct RefundCommand {
    tenant_id: String,
    actor: String,
    charge_id: String,
    amount_minor: i64,
}

pub struct RefundConsumer {
    kv: SyncKv,
}

impl RefundConsumer {
    /// Synchronous API path used by the admin console.
    pub fn refund_from_console(&mut self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str, body: &[u8]) -> Result<(), String> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or("missing Idempotency-Key")?;
        let sk = scoped(tenant_id, user_id, "refunds.create", key).map_err(|e| e.to_string())?;
        self.kv.put(sk.storage_key(), body).map_err(|e| e.to_string())
    }

    fn apply(&mut self, props: &BasicProperties, body: &[u8]) -> Result<(), String> {
        let message_id = match props.message_id.as_deref() {
            Some(id) => id.to_owned(),
            None => return Err("message without id".into()),
        };
        let cmd: RefundCommand = serde_json::from_slice(body).map_err(|e| e.to_string())?;
        let key = format!("{}:{}:{}:{}", cmd.tenant_id, cmd.actor, "refunds.create", message_id);
        if self.kv.get(&key).map_err(|e| e.to_string())?.is_some() {
            return Ok(());
        }
        tracing::info!(message_id = %message_id, charge = %cmd.charge_id, "refund applied");
        let receipt = format!(r#"{{"charge":"{}","refunded":{}}}"#, cmd.charge_id, cmd.amount_minor);
        self.kv.put(&key, receipt.as_bytes()).map_err(|e| e.to_string())
    }
}

impl Consumer for RefundConsumer {
    fn handle_delivery(&mut self, channel: &mut Channel, deliver: Deliver, headers: BasicProperties, body: Vec<u8>) {
        match self.apply(&headers, &body) {
            Ok(()) => channel.basic_ack(deliver.delivery_tag, false).ok(),
            Err(e) => {
                tracing::warn!(error = %e, "refund command rejected");
                channel.basic_nack(deliver.delivery_tag, false, false).ok()
            }
        };
    }
}
