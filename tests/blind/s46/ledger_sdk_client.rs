use reqwest::header::{HeaderMap, HeaderValue};
use uuid::Uuid;

pub struct PspClient {
    http: reqwest::Client,
    base: String,
}

impl PspClient {
    /// Outgoing call to the payment provider; the key is minted by us for the provider.
    pub async fn create_transfer(&self, amount: i64) -> reqwest::Result<String> {
        let idem_key = Uuid::new_v4().to_string();
        let mut headers = HeaderMap::new();
        headers.insert("Idempotency-Key", HeaderValue::from_str(&idem_key).unwrap());
        self.http
            .post(format!("{}/transfers", self.base))
            .headers(headers)
            .json(&serde_json::json!({ "amount": amount }))
            .send()
            .await?
            .text()
            .await
    }

    pub async fn forward(&self, inbound: &HeaderMap) -> reqwest::Result<reqwest::StatusCode> {
        let mut headers = HeaderMap::new();
        if let Some(v) = inbound.get("idempotency-key") {
            headers.insert("Idempotency-Key", v.clone());
        }
        let resp = self.http.post(format!("{}/charges", self.base)).headers(headers).send().await?;
        Ok(resp.status())
    }
}
