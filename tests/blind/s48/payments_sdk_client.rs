use rama::http::client::EasyHttpWebClient;
use rama::http::service::client::HttpClientExt;
use rama::http::{HeaderName, HeaderValue};
use rama::Context;
use serde::Serialize;
use uuid::Uuid;

pub const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

#[derive(Serialize)]
pub struct ChargeRequest<'a> {
    pub amount: u64,
    pub currency: &'a str,
}

pub struct PaymentsClient {
    base: String,
    http: EasyHttpWebClient,
    api_key: String,
}

impl PaymentsClient {
    pub fn new(base: &str, api_key: &str) -> Self {
        Self { base: base.trim_end_matches('/').to_owned(), http: EasyHttpWebClient::default(), api_key: api_key.to_owned() }
    }

    pub async fn charge(&self, req: &ChargeRequest<'_>, idempotency_key: Option<&str>) -> anyhow::Result<String> {
        let key = idempotency_key.map(str::to_owned).unwrap_or_else(|| Uuid::new_v4().to_string());
        let url = format!("{}/v1/charges", self.base);
        let resp = self
            .http
            .post(&url)
            .header(IDEMPOTENCY_KEY, HeaderValue::from_str(&key)?)
            .bearer_auth(&self.api_key)
            .json(req)
            .send(Context::default())
            .await?;
        tracing::debug!(idempotency_key = %key, status = %resp.status(), "charge sent");
        Ok(resp.into_body().try_into_string().await?)
    }
}
