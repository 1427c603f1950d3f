use std::sync::Arc;
use std::time::Duration;

use cairn::kv::Bucket;
use idem_scope::{scoped, scoped_server};

pub const MERCHANT_ID_NOT_FOUND: &str = "MERCHANT_ID_NOT_FOUND";

pub struct Payments {
    merchants: Arc<Bucket>,
    records: Arc<Bucket>,
    audit: Arc<Bucket>,
}

impl Payments {
    async fn merchant_for(&self, api_key_id: &str) -> Option<String> {
        self.merchants.get(api_key_id).await.ok().flatten().and_then(|v| String::from_utf8(v).ok())
    }

    pub async fn capture(&self, headers: &http::HeaderMap, api_key_id: &str, amount_minor: i64) -> anyhow::Result<Vec<u8>> {
        let key = headers
            .get("x-idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing X-Idempotency-Key"))?;
        let merchant = self.merchant_for(api_key_id).await;
        let merchant_id = merchant.as_deref().unwrap_or(MERCHANT_ID_NOT_FOUND);
        let sk = scoped(merchant_id, api_key_id, "payments.capture", key)?;

        self.records.claim(sk.storage_key(), Duration::from_secs(60)).await?;
        let body = format!("{{\"captured\":{}}}", amount_minor).into_bytes();
        self.records.complete(sk.storage_key(), &body).await?;
        self.audit.put(&format!("audit:{}:{}", merchant_id, amount_minor), b"capture").await?;
        Ok(body)
    }

    pub async fn settlement_retry(&self, merchant_id: &str, api_key_id: &str, settlement_id: &str) -> anyhow::Result<()> {
        let sk = scoped_server(merchant_id, api_key_id, "payments.capture", settlement_id)?;
        self.records.put(sk.storage_key(), b"settled").await?;
        tracing::info!(settlement_id, "settlement replayed");
        Ok(())
    }
}
