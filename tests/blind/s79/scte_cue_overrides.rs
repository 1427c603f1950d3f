//! Cue overrides: master control operators override a scheduled ad break
//! (skip, shorten or replace it) from the control-room console.

use crosspoint::badge::Engineer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;

#[derive(Deserialize)]
pub struct Override {
    pub break_id: String,
    pub action: String,
    pub replacement_spot: Option<String>,
}

pub async fn override_break(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let eng = inb.badge::<Engineer>().ok_or(Glitch::unauthorized())?.clone();
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?;
    let route = inb.route_template();

    let [org_id, sub, route, k] = [eng.org_id.as_str(), eng.sub.as_str(), route, k].map(|c| c.replace('\x00', ""));
    let key = scoped(&org_id, &sub, &route, &k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let o: Override = inb.json().await?;
    let applied = crate::playout::override_break(&eng.org_id, &o.break_id, &o.action, o.replacement_spot.as_deref()).await?;
    cart.put(key.storage_key(), &serde_json::to_vec(&applied).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::OK, &applied))
}
