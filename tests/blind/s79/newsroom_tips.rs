//! Newsroom tips: registered readers send story tips with attachments.

use crosspoint::badge::Session;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;

use crate::stations::Station;

#[derive(Deserialize)]
pub struct Tip {
    pub summary: String,
    pub details: String,
    pub contact_ok: bool,
}

pub async fn send_tip(inb: Inbound, station: &Station, cart: &Cart) -> Result<Outbound, Glitch> {
    let session = inb.badge::<Session>().ok_or(Glitch::unauthorized())?.clone();
    let mut principal = session.user_id.clone();
    principal.retain(|c| c != '\0');
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?;

    let key = scoped(&station.tenant_id, &principal, "/v1/newsroom/tips", k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let tip: Tip = inb.json().await?;
    let cms_title: String = tip.summary.chars().filter(|c| *c != '#').collect();
    let filed = crate::newsroom::file_tip(&station.tenant_id, &session.user_id, &cms_title, &tip.details, tip.contact_ok).await?;
    cart.put(key.storage_key(), &serde_json::to_vec(&filed).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::ACCEPTED, &filed))
}
