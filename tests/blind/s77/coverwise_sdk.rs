//! Outbound client for the Coverwise API; forwards the caller's key as the
//! upstream Idempotency-Key header value.

use reqwest_like::header::{HeaderMap, HeaderValue};

pub struct Coverwise {
    base: String,
    http: reqwest_like::Client,
}

impl Coverwise {
    pub async fn create_policy(&self, tenant_id: &str, idempotency_key: &str, body: &serde_json::Value) -> anyhow::Result<serde_json::Value> {
        let mut headers = HeaderMap::new();
        headers.insert("Idempotency-Key", HeaderValue::from_str(idempotency_key)?);
        headers.insert("X-Coverwise-Account", HeaderValue::from_str(tenant_id)?);
        let url = format!("{}/v2/policies?ref={}", self.base, idempotency_key);
        let resp = self.http.post(&url).headers(headers).json(body).send().await?;
        Ok(resp.json().await?)
    }
}
