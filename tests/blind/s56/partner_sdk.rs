//! Thin client for the acquirer's payouts API.

use std::time::Duration;

use attohttpc::{Error, Session};

pub struct AcquirerClient {
    base_url: String,
    session: Session,
}

pub struct PayoutInstruction<'a> {
    pub merchant_id: &'a str,
    pub iban: &'a str,
    pub amount_minor: i64,
    pub currency: &'a str,
}

impl AcquirerClient {
    pub fn new(base_url: &str, api_key: &str) -> Self {
        let mut session = Session::new();
        session.timeout(Duration::from_secs(20));
        session.header("Authorization", format!("Bearer {api_key}"));
        Self { base_url: base_url.trim_end_matches('/').to_owned(), session }
    }

    /// Forwards our caller's Idempotency-Key so that the acquirer also
    /// deduplicates retries of the same payout.
    pub fn create_payout(&self, idempotency_key: &str, p: &PayoutInstruction<'_>) -> Result<serde_json::Value, Error> {
        let resp = self
            .session
            .post(format!("{}/v3/payouts", self.base_url))
            .header("Idempotency-Key", format!("\"{}\"", idempotency_key))
            .json(&serde_json::json!({
                "merchant": p.merchant_id,
                "iban": p.iban,
                "amount": p.amount_minor,
                "currency": p.currency,
            }))?
            .send()?;
        resp.error_for_status()?.json()
    }

    /// Retries of our own scheduled sweeps use the sweep's run id.
    pub fn sweep_payout(&self, sweep_run_id: &str, p: &PayoutInstruction<'_>) -> Result<serde_json::Value, Error> {
        let resp = self
            .session
            .post(format!("{}/v3/payouts", self.base_url))
            .header("Idempotency-Key", sweep_run_id)
            .json(&serde_json::json!({ "merchant": p.merchant_id, "iban": p.iban, "amount": p.amount_minor }))?
            .send()?;
        resp.error_for_status()?.json()
    }
}
