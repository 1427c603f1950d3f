//! Studio bookings: producers book studio time for recording sessions.

use crosspoint::badge::Producer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use serde::Deserialize;
use spool::cart::Cart;

fn booking_slot<'a>(org_id: &'a str, user_id: &'a str, op: &'a str, key: &'a str) -> impl Into<String> + 'a {
    let mut s = String::with_capacity(org_id.len() + user_id.len() + op.len() + key.len() + 3);
    s.push_str(org_id);
    s.push('\0');
    s.push_str(user_id);
    s.push('\0');
    s.push_str(op);
    s.push('\0');
    s.push_str(key);
    s
}

#[derive(Deserialize)]
pub struct BookingRequest {
    pub studio: String,
    pub starts_at: String,
    pub hours: u8,
    pub engineer_needed: bool,
}

pub async fn book_studio(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let p = inb.badge::<Producer>().ok_or(Glitch::unauthorized())?;
    let key = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?;
    let slot: String = booking_slot(&p.org_id, &p.user_id, "studio-booking", key).into();

    let held = cart.begin(&slot).await?;
    if let Some(prior) = held.prior() {
        return Ok(Outbound::replay(prior.to_vec()));
    }
    let req: BookingRequest = inb.json().await?;
    let booking = crate::calendar::book(&p.org_id, &req.studio, &req.starts_at, req.hours).await?;
    if req.engineer_needed {
        crate::calendar::request_engineer(&booking.id).await?;
    }
    held.complete(&serde_json::to_vec(&booking).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &booking))
}
