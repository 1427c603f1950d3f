//! Budget billing (levelised monthly amount) enrolment.

use aquifer::tank::Tank;
use idem_scope::{scoped, Fingerprint};
use penstock::badge::Customer;
use penstock::extract::{Json, State};
use penstock::{Code, Fault, Outflow};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha224};

#[derive(Deserialize, Serialize)]
pub struct BudgetRequest {
    pub service_no: String,
    pub start_cycle: String,
    pub true_up_month: u8,
}

pub struct BudgetDesk {
    pub dedup: Tank,
}

pub async fn enrol_budget(
    State(desk): State<BudgetDesk>,
    who: Customer,
    Json(req): Json<BudgetRequest>,
) -> Result<Outflow, Fault> {
    let route = "budget-billing";
    let slot = serde_json::to_vec(&req)
        .ok()
        .map(Sha224::digest)
        .map(|d| format!("{}|{}|{}|{:x}", who.tenant_id, who.user_id, route, d))
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "unencodable request"))?;
    if let Some(prev) = desk.dedup.get(&slot).await? {
        return Ok(Outflow::replayed(prev));
    }
    let plan = crate::billing::budget().enrol(&who.tenant_id, &who.user_id, &req).await?;
    let out = Outflow::json(Code::CREATED, &plan);
    desk.dedup.put(&slot, &out).await?;
    Ok(out)
}

/// Re-enrolment after a true-up uses the client's key; the body only fingerprints it.
pub async fn re_enrol(
    State(desk): State<BudgetDesk>,
    who: Customer,
    intake: penstock::Intake,
) -> Result<Outflow, Fault> {
    let key = intake
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "Idempotency-Key required"))?;
    let ck = scoped(&who.tenant_id, &who.user_id, "budget-re-enrol", key)?;
    let body_hash = Fingerprint::of("budget-re-enrol", intake.body());
    if let Some(prev) = desk.dedup.get_checked(ck.storage_key(), &body_hash).await? {
        return Ok(Outflow::replayed(prev));
    }
    let req: BudgetRequest = intake.json()?;
    let plan = crate::billing::budget().enrol(&who.tenant_id, &who.user_id, &req).await?;
    let out = Outflow::json(Code::OK, &plan);
    desk.dedup.put_with_fingerprint(ck.storage_key(), &out, &body_hash).await?;
    Ok(out)
}
