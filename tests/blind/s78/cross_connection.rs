//! Cross-connection control surveys returned by commercial customers.

use aquifer::tank::Tank;
use idem_scope::{scoped, Problem};
use penstock::badge::Customer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct Survey {
    premise_id: String,
    hazards: Vec<String>,
    irrigation: bool,
}

pub async fn return_survey(intake: Intake, who: Customer, idem: &Tank) -> Result<Outflow, Fault> {
    if who.tenant_id.contains('\u{0}') || who.user_id.contains('\u{0}') {
        return Err(Fault::problem(Problem::invalid_key("identity contains a NUL byte")));
    }
    let hdr = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let key = hdr.trim_end_matches(':');
    let slot = scoped(&who.tenant_id, &who.user_id, "cross-connection-survey", key)?;
    if let Some(prev) = idem.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let s: Survey = intake.json()?;
    let filed = crate::backflow::surveys().file(&who.tenant_id, &s.premise_id, &s.hazards, s.irrigation).await?;
    let out = Outflow::json(Code::CREATED, &filed);
    idem.put(slot.storage_key(), &out).await?;
    Ok(out)
}
