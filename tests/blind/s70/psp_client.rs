//! Outbound calls to the payment service provider; keys travel as header values only.
use reqwless::client::HttpClient;
use reqwless::request::{Method, RequestBuilder};
use uuid::Uuid;

pub struct Psp<'a> {
    pub client: HttpClient<'a>,
    pub base: String,
}

impl Psp<'_> {
    pub async fn capture(&mut self, idempotency_key: &str, body: &[u8]) -> anyhow::Result<Vec<u8>> {
        let forwarded = format!("{}-capture", idempotency_key);
        let url = format!("{}/v1/captures", self.base);
        let mut req = self.client.request(Method::POST, &url).await?;
        let resp = req.headers(&[("Idempotency-Key", forwarded.as_str())]).body(body).send().await?;
        Ok(resp.body().to_vec())
    }

    pub async fn refund(&mut self, idempotency_key: &str, body: &[u8]) -> anyhow::Result<Vec<u8>> {
        let url = format!("{}/v1/refunds", self.base);
        let mut req = self.client.request(Method::POST, &url).await?;
        let resp = req.headers(&[("Idempotency-Key", idempotency_key)]).body(body).send().await?;
        Ok(resp.body().to_vec())
    }

    pub async fn void_attempt(&mut self, authorisation: &str) -> anyhow::Result<()> {
        let attempt = Uuid::new_v4().to_string();
        let url = format!("{}/v1/authorisations/{}/void", self.base, authorisation);
        let mut req = self.client.request(Method::POST, &url).await?;
        req.headers(&[("Idempotency-Key", attempt.as_str())]).send().await?;
        Ok(())
    }
}
