//! Autopay enrollment for a service account's monthly statement.

use std::fmt;

use aquifer::tank::Tank;
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

#[derive(Deserialize)]
struct AutopayMandate {
    bank_token: String,
    draft_day: u8,
}

struct EnrollSlot<'a> {
    tenant_id: &'a str,
    user_id: &'a str,
    route: &'a str,
    key: &'a str,
}

impl fmt::Display for EnrollSlot<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\u{1f}{}\u{1f}{}\u{1f}{}", self.tenant_id, self.user_id, self.route, self.key)
    }
}

struct MandateNote<'a> {
    user_id: &'a str,
    key: &'a str,
}

impl fmt::Display for MandateNote<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "autopay mandate for {} (request {})", self.user_id, self.key)
    }
}

pub async fn enroll(intake: Intake, who: Customer, tank: &Tank) -> Result<Outflow, Fault> {
    let Some(key) = intake.header(IDEMPOTENCY_HEADER) else {
        return Err(Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"));
    };
    let slot = EnrollSlot { tenant_id: &who.tenant_id, user_id: &who.user_id, route: "autopay-enroll", key };
    let slot_key = slot.to_string();
    if let Some(prev) = tank.get(&slot_key).await? {
        return Ok(Outflow::replayed(prev));
    }
    let mandate: AutopayMandate = intake.json()?;
    tracing::info!(note = %MandateNote { user_id: &who.user_id, key }, draft_day = mandate.draft_day, "enrolling");
    let saved = crate::billing::mandates()
        .create(&who.tenant_id, &who.user_id, &mandate.bank_token, mandate.draft_day)
        .await?;
    let out = Outflow::json(Code::CREATED, &saved);
    tank.put(&slot_key, &out).await?;
    Ok(out)
}
