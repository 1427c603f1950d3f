//! "Zoo Lights" winter evening tickets, sold to members and the public.

use enclosure::extract::{Json, Shared};
use enclosure::pass::{CheckoutSession, Member};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct LightsOrder {
    evening: String,
    tickets: u8,
    cocoa_vouchers: u8,
}

pub struct LightsBox {
    pub replays: Tank,
    pub evenings: crate::events::Evenings,
}

/// Members and guests both get a checkout session (guests by e-mail link).
pub async fn order(visit: Visit, Shared(lights): Shared<LightsBox>, checkout: Option<CheckoutSession>, Json(req): Json<LightsOrder>) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let member = visit.pass::<Member>();
    let org_id = match member.as_ref() {
        Some(m) => m.org_id.clone(),
        None => String::from("public"),
    };
    let user_id = checkout
        .as_ref()
        .map(|c| c.user_id.clone())
        .ok_or_else(|| Fault::unauthorized("sign in or continue as guest checkout"))?;
    let is_member = member.as_ref().map_or(false, |m| m.is_active());

    let slot = scoped(&org_id, &user_id, "lights.order", key).map_err(Fault::bad_request)?;
    if let Some(prev) = lights.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let sale = lights.evenings.sell(&req.evening, req.tickets, req.cocoa_vouchers, is_member).await?;
    let body = serde_json::to_vec(&sale).map_err(Fault::internal)?;
    lights.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
