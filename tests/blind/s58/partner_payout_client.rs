use std::time::Duration;

use http::{HeaderMap, HeaderName, HeaderValue};
use uuid::Uuid;

const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

pub struct PartnerClient {
    base_url: String,
    api_token: String,
    max_attempts: u32,
}

pub struct PayoutOrder<'a> {
    pub account: &'a str,
    pub amount_minor: i64,
    pub currency: &'a str,
}

impl PartnerClient {
    /// Forward a payout to the partner bank, reusing the caller's key so the bank deduplicates too.
    pub fn forward(&self, incoming: &HeaderMap, order: &PayoutOrder<'_>) -> anyhow::Result<String> {
        let key = incoming
            .get(&IDEMPOTENCY_KEY)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let mut outgoing = HeaderMap::new();
        outgoing.insert(IDEMPOTENCY_KEY, HeaderValue::from_str(key)?);
        self.send(&outgoing, order, key)
    }

    /// Payouts triggered by the scheduler have no caller; the bank still wants a key.
    pub fn scheduled(&self, order: &PayoutOrder<'_>) -> anyhow::Result<String> {
        let minted = Uuid::new_v4().to_string();
        let mut outgoing = HeaderMap::new();
        outgoing.insert(IDEMPOTENCY_KEY, HeaderValue::from_str(&minted)?);
        self.send(&outgoing, order, &minted)
    }

    fn send(&self, headers: &HeaderMap, order: &PayoutOrder<'_>, key: &str) -> anyhow::Result<String> {
        let body = format!(
            r#"{{"account":"{}","amount":{},"currency":"{}"}}"#,
            order.account, order.amount_minor, order.currency
        );
        let mut last_err = None;
        for attempt in 1..=self.max_attempts {
            let mut req = minreq::post(format!("{}/v2/payouts", self.base_url))
                .with_header("Authorization", format!("Bearer {}", self.api_token))
                .with_header("X-Attempt", format!("{}:{}", key, attempt))
                .with_body(body.clone())
                .with_timeout(10);
            for (name, value) in headers {
                req = req.with_header(name.as_str(), value.to_str().unwrap_or_default());
            }
            match req.send() {
                Ok(res) if res.status_code < 500 => return Ok(res.as_str()?.to_owned()),
                Ok(res) => last_err = Some(anyhow::anyhow!("partner returned {}", res.status_code)),
                Err(e) => last_err = Some(e.into()),
            }
            std::thread::sleep(Duration::from_millis(200 * u64::from(attempt)));
        }
        Err(last_err.unwrap_or_else(|| anyhow::anyhow!("no attempts made")))
    }
}
