//! Plan review fees for development submittals (engineering firms or walk-ins).

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::MaybePartner;
use penstock::routing::District;
use penstock::{Code, Fault, Intake, Outflow};

#[derive(Default)]
struct Requester {
    tenant_id: String,
    user_id: String,
}

pub async fn pay_review_fee(intake: Intake, maybe: MaybePartner, replays: &Tank) -> Result<Outflow, Fault> {
    let district = intake
        .valve::<District>()
        .ok_or_else(|| Fault::status(Code::MISDIRECTED_REQUEST, "unknown district"))?;
    let requester = match maybe.0.as_ref() {
        Some(p) => Requester { tenant_id: p.org_id.clone(), user_id: p.api_key_id.clone() },
        None => Requester { tenant_id: district.tenant_id.clone(), ..Default::default() },
    };
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let slot = scoped(&requester.tenant_id, &requester.user_id, "plan-review-fee", key)?;
    if let Some(prev) = replays.get(slot.storage_key()).await? {
        return Ok(Outflow::replayed(prev));
    }
    let submittal = intake.param("submittal_no").unwrap_or_default();
    let paid = crate::fees::calculator().pay_review(&requester.tenant_id, submittal).await?;
    let out = Outflow::json(Code::OK, &paid);
    replays.put(slot.storage_key(), &out).await?;
    Ok(out)
}
