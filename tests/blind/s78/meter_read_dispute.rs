//! Meter-read disputes (customer believes a read was estimated or misread).

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::SsoCustomer;
use penstock::{Code, Fault, Intake, Outflow};
use serde::Deserialize;

#[derive(Deserialize)]
struct Dispute {
    read_id: String,
    claimed_reading: u64,
    photo: Option<String>,
}

pub async fn open_dispute(intake: Intake, who: SsoCustomer, replay_tank: &Tank) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?
        .trim();
    // The SSO subject arrives as "/users/<id>/"; keep just the id.
    let principal = who.sub.trim_matches('/');
    let slot = scoped(&who.tenant_id, principal, "read-dispute", key)?;
    if let Some(prev) = replay_tank.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let d: Dispute = intake.json()?;
    let case = crate::ami::disputes().open(&who.tenant_id, principal, &d.read_id, d.claimed_reading, d.photo.as_deref()).await?;
    let out = Outflow::json(Code::CREATED, &case);
    replay_tank.put(slot.storage_key(), &out).await?;
    Ok(out)
}
