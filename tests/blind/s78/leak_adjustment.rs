//! Leak adjustment requests: credit part of a high bill after a repaired leak.

use aquifer::tank::Tank;
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct LeakClaim {
    service_no: String,
    repair_date: String,
    plumber_invoice: Option<String>,
    notes: String,
}

pub async fn request_adjustment(intake: Intake, who: Customer, replay_tank: &Tank) -> Result<Outflow, Fault> {
    let op = "leak-adjustment";
    let slot = intake
        .header("idempotency-key")
        .map(|k| who.tenant_id.clone() + "\u{0}" + &who.user_id + "\u{0}" + op + "\u{0}" + k);
    let Some(slot) = slot else {
        return Err(Fault::status(Code::BAD_REQUEST, "missing Idempotency-Key"));
    };
    if let Some(prev) = replay_tank.get(&slot).await? {
        return Ok(Outflow::replayed(prev));
    }
    let claim: LeakClaim = intake.json()?;
    let notes = claim.notes.trim().replace("\r\n", "\n");
    let lang = intake.header("accept-language").unwrap_or("en-US");
    let case = crate::cis::adjustments()
        .open(&who.tenant_id, &who.user_id, &claim.service_no, &claim.repair_date, claim.plumber_invoice.as_deref(), &notes, lang)
        .await?;
    let out = Outflow::json(Code::ACCEPTED, &case);
    replay_tank.put(&slot, &out).await?;
    Ok(out)
}
