//! Payment arrangements: split an overdue balance into instalments.

use std::fmt::LowerHex;
use std::hash::{BuildHasher, Hash};

use aquifer::tank::Tank;
use foldhash::fast::FixedState;
use penstock::badge::Customer;
use penstock::extract::{Json, State};
use penstock::{Code, Fault, Outflow};
use serde::Deserialize;

#[derive(Deserialize, Hash)]
pub struct PlanRequest {
    pub service_no: String,
    pub instalments: u8,
    pub first_due: String,
    pub down_payment_minor: i64,
}

fn plan_digest(plan: &PlanRequest) -> impl LowerHex {
    FixedState::with_seed(0x5eed).hash_one(plan)
}

pub struct PlanDesk {
    pub replays: Tank,
    pub arrangements: crate::billing::Arrangements,
}

/// Arrangements are deduplicated so a double-tapped "confirm" does not create two plans.
pub async fn create_plan(
    State(desk): State<PlanDesk>,
    who: Customer,
    Json(plan): Json<PlanRequest>,
) -> Result<Outflow, Fault> {
    let route = "payment-plan";
    let slot = format!("{}/{}/{}/{:x}", who.tenant_id, who.user_id, route, plan_digest(&plan));
    if let Some(done) = desk.replays.get(&slot).await? {
        return Ok(Outflow::replayed(done));
    }
    let created = desk.arrangements.open(&who.tenant_id, &who.user_id, &plan).await?;
    let etag = format!("\"{:x}\"", plan_digest(&plan));
    let out = Outflow::json(Code::CREATED, &created).with_header("ETag", &etag);
    desk.replays.put_ttl(&slot, &out, std::time::Duration::from_secs(86_400)).await?;
    Ok(out)
}
