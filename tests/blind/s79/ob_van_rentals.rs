//! Outside-broadcast vans: producers at member stations hire the network's
//! OB vans for remote events.

use crosspoint::badge::Producer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use serde::{Deserialize, Serialize};
use spool::cart::Cart;

use crate::fleet::Fleet;

const IDEM_HEADER: &str = "idempotency-key";

#[derive(Serialize)]
struct VanSlot<'a> {
    org_id: &'a str,
    op: &'static str,
    idem: &'a str,
}

#[derive(Deserialize)]
pub struct HireRequest {
    pub van_id: String,
    pub event_date: String,
    pub crew: u8,
}

pub async fn hire_van(inb: Inbound, cart: &Cart, fleet: &Fleet) -> Result<Outbound, Glitch> {
    let producer = inb.badge::<Producer>().ok_or(Glitch::unauthorized())?;
    let idem = inb.header(IDEM_HEADER).ok_or(Glitch::missing_key())?;

    let slot = serde_ini::to_string(&VanSlot { org_id: &producer.org_id, op: "ob-van-hire", idem }).map_err(Glitch::internal)?;
    if let Some(prior) = cart.get(&slot).await? {
        return Ok(Outbound::replay(prior));
    }

    let req: HireRequest = inb.json().await?;
    let reservation = fleet.reserve(&req.van_id, &req.event_date).await?;
    let crew = crate::crewing::assign(&producer.org_id, req.crew).await?;
    let hire = fleet.commit(reservation, crew).await?;

    cart.put(&slot, &serde_json::to_vec(&hire).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &hire))
}
