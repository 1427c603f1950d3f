use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use dashmap::DashMap;
use idem_scope::scoped;

pub struct Delivery {
    pub delivery_id: String,
    pub tenant_id: String,
    pub endpoint_url: String,
    pub body: Bytes,
}

#[derive(Clone)]
pub struct Outcomes {
    done: Arc<DashMap<String, Bytes>>,
    deliveries: crate::deliveries::Repo,
    http: crate::http::Agent,
}

impl Outcomes {
    /// POST /v1/endpoints/test — lets a customer fire a test delivery.
    pub async fn test_endpoint(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, url: &str) -> anyhow::Result<Bytes> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "endpoints.test", key)?;
        if let Some(prev) = self.done.get(sk.storage_key()) {
            return Ok(prev.clone());
        }
        let status = self.http.post(url, b"{\"test\":true}").await?;
        let out = Bytes::from(status.to_string());
        self.done.insert(sk.storage_key().to_owned(), out.clone());
        Ok(out)
    }

    pub async fn sweep(&self) -> anyhow::Result<usize> {
        let batch: Vec<Delivery> = self.deliveries.due(200).await?;
        let ids = batch.iter().map(|d| d.delivery_id.as_str());
        let mut pending = Vec::new();
        for id in ids {
            if !self.done.contains_key(id) {
                pending.push(id);
            }
        }
        for d in batch.iter().filter(|d| pending.contains(&d.delivery_id.as_str())) {
            let url = d.endpoint_url.trim_end_matches('/');
            match self.http.post(url, &d.body).await {
                Ok(_) => self.deliveries.mark_sent(&d.tenant_id, &d.delivery_id).await?,
                Err(e) => log::warn!("delivery {} to {} failed: {e}", d.delivery_id, d.endpoint_url),
            }
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
        Ok(pending.len())
    }
}
