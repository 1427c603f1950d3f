use std::sync::Arc;

use ledgerkit::kv::Kv;
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize)]
pub struct UsageBatch {
    pub tenant_id: String,
    pub api_key_id: String,
    pub records: Vec<UsageRecord>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct UsageRecord {
    pub meter: String,
    pub quantity: u64,
    pub at: i64,
}

pub struct Ingest {
    seen: Arc<Kv>,
    meters: Arc<metering::Sink>,
}

fn slot(parts: &(&str, &str, &str, &str)) -> Vec<u8> {
    postcard::to_allocvec(parts).expect("tuple of strs always encodes")
}

impl Ingest {
    /// HTTP: `POST /v1/usage` from customer SDKs.
    pub async fn post_usage(&self, req: &gatehouse::http::Request, batch: UsageBatch) -> anyhow::Result<bool> {
        let Some(key) = req.header_str("Idempotency-Key") else {
            anyhow::bail!("Idempotency-Key required");
        };
        let k = slot(&(batch.tenant_id.as_str(), batch.api_key_id.as_str(), "usage.post", key));
        self.apply_once(&k, &batch).await
    }

    /// Internal: batches re-published by the aggregation tier over NATS.
    pub async fn on_republished(&self, msg: &nats::Message) -> anyhow::Result<bool> {
        let batch: UsageBatch = serde_json::from_slice(&msg.data)?;
        let msg_id = msg
            .headers
            .as_ref()
            .and_then(|h| h.get("Nats-Msg-Id"))
            .and_then(|v| v.iter().next().cloned())
            .ok_or_else(|| anyhow::anyhow!("republished batch without message id"))?;
        let k = slot(&(batch.tenant_id.as_str(), batch.api_key_id.as_str(), "usage.post", msg_id.as_str()));
        self.apply_once(&k, &batch).await
    }

    async fn apply_once(&self, k: &[u8], batch: &UsageBatch) -> anyhow::Result<bool> {
        if self.seen.get(k).await?.is_some() {
            return Ok(false);
        }
        self.meters.record(&batch.tenant_id, &batch.records).await?;
        self.seen.put(k, b"1".to_vec()).await?;
        Ok(true)
    }
}
