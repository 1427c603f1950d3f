//! Opt-in for the radio-endpoint meter upgrade programme.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct UpgradeOptIn {
    access_notes: String,
    dog_on_premises: bool,
}

pub async fn opt_in_upgrade(intake: Intake, who: Customer, dedup: &Tank) -> Result<Outflow, Fault> {
    let clean = |s: &str| s.replace('\u{1e}', " ");
    let tidy_notes = |s: &str| s.replace('|', " ").replace('#', " ");
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let slot = scoped(&who.tenant_id, &who.user_id, "meter-upgrade", &clean(key))?;
    if let Some(prev) = dedup.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let req: UpgradeOptIn = intake.json()?;
    let appt = crate::field::orders()
        .upgrade(&who.tenant_id, &who.user_id, &tidy_notes(&req.access_notes), req.dog_on_premises)
        .await?;
    let out = Outflow::json(Code::CREATED, &appt);
    dedup.put(slot.storage_key(), &out).await?;
    Ok(out)
}
