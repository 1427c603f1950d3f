//! Outbound SDK for the partner payments API. We are the *client* here.

use std::time::Duration;

use uuid::Uuid;

pub const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

pub struct PartnerClient {
    agent: ureq::Agent,
    base: String,
    journal: OutboundJournal,
}

pub struct PaymentIntent<'a> {
    pub tenant_id: &'a str,
    pub amount_minor: i64,
    pub currency: &'a str,
}

impl PartnerClient {
    pub fn new(base: &str, journal: OutboundJournal) -> Self {
        let agent = ureq::AgentBuilder::new().timeout(Duration::from_secs(10)).build();
        PartnerClient { agent, base: base.to_owned(), journal }
    }

    /// Sends the payment with a fresh key; retries of this call reuse `idem_key`.
    pub fn send_payment(&self, intent: &PaymentIntent<'_>) -> Result<String, SdkError> {
        let idem_key = Uuid::new_v4().to_string();
        self.journal.record(intent.tenant_id, &idem_key, "payments.create");
        let url = format!("{}/v1/payments", self.base);
        let mut last_err = None;
        for attempt in 0..3 {
            let resp = self
                .agent
                .post(&url)
                .set(IDEMPOTENCY_HEADER, &idem_key)
                .set("X-Attempt", &attempt.to_string())
                .send_json(ureq::json!({ "amount": intent.amount_minor, "currency": intent.currency }));
            match resp {
                Ok(r) => return Ok(r.into_string()?),
                Err(e) => last_err = Some(e),
            }
            std::thread::sleep(Duration::from_millis(200 * (attempt + 1)));
        }
        Err(SdkError::from(last_err.unwrap()))
    }
}
