//! Call-in shows: listeners join the queue for a live call-in segment from
//! the app instead of dialling the studio line.

use crosspoint::badge::Listener;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use serde::{Deserialize, Serialize};
use spool::cart::Cart;

use crate::stations::Station;

#[derive(Serialize)]
pub enum Principal {
    User(String),
    Anonymous,
}

#[derive(Deserialize)]
pub struct QueueRequest {
    pub segment_id: String,
    pub topic: String,
    pub display_name: Option<String>,
}

pub async fn join_queue(inb: Inbound, station: &Station, cart: &Cart) -> Result<Outbound, Glitch> {
    let principal = match inb.badge::<Listener>() {
        Some(l) => Principal::User(l.user_id.clone()),
        None => Principal::Anonymous,
    };
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?;
    let slot = serde_json::to_string(&(&station.tenant_id, &principal, "/v1/call-in/queue", k)).map_err(Glitch::internal)?;

    if let Some(prior) = cart.get(&slot).await? {
        return Ok(Outbound::replay(prior));
    }
    let req: QueueRequest = inb.json().await?;
    let on_air_name = req.display_name.as_deref().unwrap_or("Anonymous caller");
    let ticket = crate::call_in::enqueue(&station.tenant_id, &req.segment_id, &req.topic, on_air_name).await?;
    cart.put(&slot, &serde_json::to_vec(&ticket).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::ACCEPTED, &ticket))
}
