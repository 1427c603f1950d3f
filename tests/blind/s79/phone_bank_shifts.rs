//! Phone bank: volunteers swap pledge-drive phone shifts.

use crosspoint::badge::Volunteer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use serde::Deserialize;
use spool::cart::Cart;
use tokio::sync::Mutex;

use crate::roster::Roster;

const HDR: &str = "Idempotency-Key";

#[derive(Deserialize)]
pub struct SwapRequest {
    pub from_shift: String,
    pub to_shift: String,
    pub desk: Option<String>,
}

pub async fn swap_shift(inb: Inbound, cart: &Cart, roster: &Mutex<Roster>) -> Result<Outbound, Glitch> {
    let v = inb.badge::<Volunteer>().ok_or(Glitch::unauthorized())?;
    let key = inb.header(HDR).ok_or(Glitch::missing_key())?;

    let mut slot = String::new();
    for part in [v.tenant_id.as_str(), v.user_id.as_str(), "/v1/shifts/swap", key] {
        slot += part;
        slot += "\u{1e}";
    }
    if let Some(prior) = cart.get(&slot).await? {
        return Ok(Outbound::replay(prior));
    }

    let req: SwapRequest = inb.json().await?;
    let desk = req.desk.as_deref().unwrap_or("none");
    let mut guard = roster.lock().await;
    let swapped = guard.swap(&v.user_id, &req.from_shift, &req.to_shift, desk)?;
    drop(guard);

    cart.put(&slot, &serde_json::to_vec(&swapped).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::OK, &swapped))
}
