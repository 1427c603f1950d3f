//! Outbound client for the acquirer's API. The acquirer wants its own
//! Idempotency-Key; we derive it from ours so that our retries are theirs.

use aws_sdk_sns::Client as SnsClient;
use http::{HeaderMap, HeaderName, HeaderValue};

pub struct Acquirer {
    http: crate::http::Client,
    sns: SnsClient,
    topic_arn: String,
}

impl Acquirer {
    pub async fn authorize(&self, merchant_id: &str, idempotency_key: &str, body: Vec<u8>) -> anyhow::Result<Vec<u8>> {
        let mut headers = HeaderMap::new();
        let forwarded = format!("{merchant_id}-{idempotency_key}");
        headers.insert(HeaderName::from_static("idempotency-key"), HeaderValue::from_str(&forwarded)?);
        let resp = self.http.post("/v2/authorizations", headers, body).await?;
        self.sns
            .publish()
            .topic_arn(&self.topic_arn)
            .message_group_id(merchant_id)
            .message_deduplication_id(idempotency_key)
            .message("authorized")
            .send()
            .await?;
        Ok(resp)
    }
}
