//! Start / stop / move service orders (they trigger a truck roll for a meter read).

use aquifer::locks::PremiseLocks;
use aquifer::tank::Tank;
use penstock::badge::Customer;
use penstock::extract::{FromRequestParts, Json, Parts, State};
use penstock::{Code, Fault, Outflow};
use serde::Deserialize;

/// `X-Idempotency-Key` sent by the portal's move wizard.
pub struct MoveKey(pub String);

impl<S: Sync> FromRequestParts<S> for MoveKey {
    type Rejection = Fault;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Fault> {
        parts
            .headers
            .get("X-Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .map(|v| MoveKey(v.to_owned()))
            .ok_or_else(|| Fault::status(Code::BAD_REQUEST, "X-Idempotency-Key required"))
    }
}

#[derive(Deserialize)]
pub struct MoveOrder {
    pub premise_id: String,
    pub kind: String,
    pub effective_on: String,
}

pub struct MoveDesk {
    pub orders: Tank,
    pub premises: PremiseLocks,
}

pub async fn submit_move(
    State(desk): State<MoveDesk>,
    who: Customer,
    key: MoveKey,
    Json(order): Json<MoveOrder>,
) -> Result<Outflow, Fault> {
    let entry = desk.orders.entry(&key.0).await?;
    if let Some(prev) = entry.value() {
        return Ok(Outflow::replayed(prev));
    }
    let lock = desk.premises.try_lock(&order.premise_id).await?;
    let ticket = crate::field::orders()
        .open(&who.tenant_id, &who.user_id, &order.premise_id, &order.kind, &order.effective_on)
        .await?;
    desk.premises.unlock(lock).await;
    let out = Outflow::json(Code::CREATED, &ticket);
    entry.fill(&out).await?;
    Ok(out)
}
