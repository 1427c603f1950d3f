//! Client for the card processor. The processor supports the
//! Idempotency-Key header too; we forward the member's key (one per
//! attempt series) and, for automatic retries of recurring charges, the
//! billing event id.

use std::time::Duration;

use crosspoint::client::{Client, Request};
use serde::{Deserialize, Serialize};

#[derive(Serialize)]
pub struct ChargeRequest<'a> {
    pub amount_cents: i64,
    pub currency: &'a str,
    pub card_token: &'a str,
    pub statement_descriptor: &'a str,
}

#[derive(Deserialize)]
pub struct ChargeResult {
    pub charge_id: String,
    pub status: String,
}

pub struct Processor {
    pub client: Client,
    pub base_url: String,
}

impl Processor {
    /// Forwards the member's `Idempotency-Key` (one series per key; the
    /// attempt number keeps our own retries distinguishable upstream).
    pub async fn charge(&self, idempotency_key: &str, attempt: u32, req: &ChargeRequest<'_>) -> Result<ChargeResult, crosspoint::client::Error> {
        let forwarded = format!("{}-{}", idempotency_key, attempt);
        let request = Request::post(format!("{}/v2/charges", self.base_url))
            .header("Idempotency-Key", &forwarded)
            .timeout(Duration::from_secs(15))
            .json(req)?;
        self.client.send(request).await?.json().await
    }

    /// Recurring charges retried by the billing scheduler.
    pub async fn charge_recurring(&self, billing_event_id: &str, req: &ChargeRequest<'_>) -> Result<ChargeResult, crosspoint::client::Error> {
        let request = Request::post(format!("{}/v2/charges", self.base_url))
            .header("Idempotency-Key", billing_event_id)
            .header("X-Source", "recurring")
            .json(req)?;
        self.client.send(request).await?.json().await
    }
}
