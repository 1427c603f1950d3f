use aws_lambda_events::event::sns::SnsEvent;
use heed::types::Bytes;
use heed::{Database, Env};
use rama::http::{HeaderMap, StatusCode};
use serde::Deserialize;

#[derive(Deserialize)]
struct Notice {
    tenant_id: String,
    user_id: String,
}

pub struct Inbox {
    env: Env,
    handled: Database<Bytes, Bytes>,
}

impl Inbox {
    fn seen(&self, slot: &[u8]) -> bool {
        self.env.read_txn().ok().and_then(|r| self.handled.get(&r, slot).ok().flatten().map(|_| ())).is_some()
    }

    fn mark(&self, slot: &[u8], body: &[u8]) -> heed::Result<()> {
        let mut w = self.env.write_txn()?;
        self.handled.put(&mut w, slot, body)?;
        w.commit()
    }

    pub fn acknowledge_http(&self, tenant_id: &str, user_id: &str, headers: &HeaderMap) -> Result<(), StatusCode> {
        let ck = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or(StatusCode::BAD_REQUEST)?;
        let slot = serde_cbor::to_vec(&(tenant_id, user_id, "inbox.ack", ck)).map_err(|_| StatusCode::BAD_REQUEST)?;
        if self.seen(&slot) {
            return Ok(());
        }
        self.mark(&slot, b"acked").map_err(|_| StatusCode::SERVICE_UNAVAILABLE)
    }

    pub fn acknowledge_sns(&self, event: SnsEvent) -> anyhow::Result<()> {
        for rec in event.records {
            let notice: Notice = serde_json::from_str(&rec.sns.message)?;
            let message_id = rec.sns.message_id.clone();
            let slot = serde_cbor::to_vec(&(notice.tenant_id.as_str(), notice.user_id.as_str(), "inbox.ack", message_id.as_str()))?;
            if self.seen(&slot) {
                continue;
            }
            tracing::info!(%message_id, "acknowledging notice");
            self.mark(&slot, b"acked")?;
        }
        Ok(())
    }
}
