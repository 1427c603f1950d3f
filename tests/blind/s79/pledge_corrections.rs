//! Pledge corrections: phone-room supervisors fix the amount or the
//! premium of a pledge taken on air.

use crosspoint::badge::Staff;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use spool::cart::Cart;

const H: &str = "Idempotency-Key";

#[derive(Deserialize)]
pub struct Correction {
    pub pledge_id: String,
    pub amount_cents: Option<i64>,
    pub premium_sku: Option<String>,
    pub note: String,
}

pub async fn correct_pledge(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let staff = inb.badge::<Staff>().ok_or(Glitch::unauthorized())?.clone();
    let k = inb
        .header(H)
        .map(|k| k.replace('\u{1e}', ""))
        .ok_or(Glitch::problem(Problem::missing_key()))?;

    let key = scoped(&staff.tenant_id, &staff.user_id, "/v1/pledges/correct", &k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let c: Correction = inb.json().await?;
    let audit_note = c.note.replace('\n', " ");
    let fixed = crate::pledges::correct(&staff.tenant_id, &c.pledge_id, c.amount_cents, c.premium_sku.as_deref(), &audit_note).await?;
    cart.put(key.storage_key(), &serde_json::to_vec(&fixed).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::OK, &fixed))
}
