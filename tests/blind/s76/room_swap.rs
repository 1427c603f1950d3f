//! Residence-hall room swaps between two consenting residents. The matched
//! route template is normalised before it is used in the scope, and the
//! housing vendor is notified through its webhook URL.

use idem_scope::scoped;
use lectern::card::Student;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::housing::{Assignments, VendorHook};

#[derive(Deserialize)]
pub struct SwapIn {
    pub partner_user_id: String,
    pub my_room: String,
    pub their_room: String,
}

pub struct RoomSwaps {
    pub pouch: Pouch,
    pub assignments: Assignments,
    pub vendor: VendorHook,
}

pub async fn swap_rooms(ask: &Ask, rs: &RoomSwaps) -> Result<Tell, Hitch> {
    let card = ask.badge::<Student>()?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let route = ask.slot().trim_start_matches('/');

    let sk = scoped(&card.tenant_id, &card.user_id, route, key)?;
    if let Some(done) = rs.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: SwapIn = ask.json()?;
    let swapped = rs.assignments.swap(&card.tenant_id, &card.user_id, &input.partner_user_id, &input.my_room, &input.their_room).await?;
    let hook_url = format!("{}/events", rs.vendor.base_url.trim_end_matches('/'));
    rs.vendor.notify(&hook_url, &swapped).await?;
    let body = serde_json::to_vec(&swapped)?;
    rs.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::OK, body))
}
