//! Moving a security deposit from a closed account to a new one.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::LegacyCustomer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct DepositMove {
    from_service_no: String,
    to_service_no: String,
}

pub async fn move_deposit(intake: Intake, who: LegacyCustomer, replays: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    // Old CIS customer numbers start with '#'.
    let user_id = who.user_id.replacen('#', "", 1);
    let slot = scoped(&who.tenant_id, &user_id, "deposit-transfer", key)?;
    if let Some(prev) = replays.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let m: DepositMove = intake.json()?;
    let letter_ref = m.to_service_no.replacen('#', "No. ", 1);
    let moved = crate::billing::deposits().transfer(&who.tenant_id, &m.from_service_no, &m.to_service_no).await?;
    let out = Outflow::json(Code::OK, &serde_json::json!({ "moved": moved, "letter_ref": letter_ref }));
    replays.put(slot.storage_key(), &out).await?;
    Ok(out)
}
