//! Outbound client for the card processor's REST API (blocking, ureq).

use std::sync::Arc;

use tokio::sync::Semaphore;

pub struct Processor {
    agent: ureq::Agent,
    base: String,
    permits: Arc<Semaphore>,
}

#[derive(serde::Serialize)]
pub struct DebitRequest<'a> {
    pub amount_cents: i64,
    pub token: &'a str,
}

pub struct ProcessorEvent {
    pub event_id: String,
    pub kind: String,
}

impl Processor {
    /// `idempotency_key` is the portal client's key; the processor scopes it by our API credential.
    pub fn debit(&self, idempotency_key: &str, attempt: u32, req: &DebitRequest<'_>) -> Result<Vec<u8>, crate::Error> {
        let _permit = self.permits.try_acquire()?;
        let resp = self
            .agent
            .post(&format!("{}/v2/debits", self.base))
            .header("Idempotency-Key", idempotency_key)
            .header("X-Attempt", &attempt.to_string())
            .send_json(req)?;
        Ok(resp.into_body().read_to_vec()?)
    }

    pub fn refund(&self, idempotency_key: &str, debit_id: &str) -> Result<Vec<u8>, crate::Error> {
        let upstream_key = format!("wtr-refund-{idempotency_key}");
        let resp = self
            .agent
            .post(&format!("{}/v2/debits/{debit_id}/refunds", self.base))
            .header("Idempotency-Key", &upstream_key)
            .send_empty()?;
        Ok(resp.into_body().read_to_vec()?)
    }

    pub fn ack_event(&self, evt: &ProcessorEvent) -> Result<(), crate::Error> {
        self.agent
            .post(&format!("{}/v2/events/{}/ack", self.base, evt.event_id))
            .header("Idempotency-Key", &evt.event_id)
            .send_empty()?;
        Ok(())
    }
}
