//! Outbound client for the card processor. The rider's idempotency key is
//! forwarded per leg, so the processor deduplicates on its side as well.

use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use uuid::Uuid;
use wharf::outbound::{Body, HeaderName, HeaderValue, Request};

const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

#[derive(Debug, thiserror::Error)]
pub enum PspError {
    #[error("processor unreachable: {0}")]
    Transport(String),
    #[error("processor declined: {0}")]
    Declined(String),
    #[error("bad header value")]
    Header,
}

pub struct PspLegs {
    http: Client<HttpConnector, Body>,
    base: String,
    api_key: String,
}

impl PspLegs {
    pub async fn capture_leg(&self, tenant_id: &str, idempotency_key: &str, leg: u8, amount_minor: i64) -> Result<String, PspError> {
        let mut req = Request::post(format!("{}/v3/captures", self.base))
            .json(&wharf::json!({ "merchant": tenant_id, "amount": amount_minor, "leg": leg }))
            .map_err(|_| PspError::Header)?;
        let headers = req.headers_mut();
        headers.insert(IDEMPOTENCY_KEY, HeaderValue::from_str(&format!("{idempotency_key}.{leg}")).map_err(|_| PspError::Header)?);
        headers.insert("x-attempt-id", HeaderValue::from_str(&Uuid::new_v4().to_string()).map_err(|_| PspError::Header)?);
        headers.insert("authorization", HeaderValue::from_str(&format!("Bearer {}", self.api_key)).map_err(|_| PspError::Header)?);
        self.send(req).await
    }

    pub async fn refund(&self, tenant_id: &str, idempotency_key: &str, capture_ref: &str) -> Result<String, PspError> {
        let mut req = Request::post(format!("{}/v3/captures/{capture_ref}/refunds", self.base))
            .json(&wharf::json!({ "merchant": tenant_id }))
            .map_err(|_| PspError::Header)?;
        req.headers_mut().insert(IDEMPOTENCY_KEY, HeaderValue::from_str(idempotency_key).map_err(|_| PspError::Header)?);
        self.send(req).await
    }

    async fn send(&self, req: Request) -> Result<String, PspError> {
        let resp = self.http.request(req.into_inner()).await.map_err(|e| PspError::Transport(e.to_string()))?;
        if !resp.status().is_success() {
            return Err(PspError::Declined(resp.status().to_string()));
        }
        Ok(resp.headers().get("x-reference").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned())
    }
}
