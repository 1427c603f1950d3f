//! Lobby kiosk donations: visitors tap a member card (or not) and donate at
//! the kiosk in the station lobby.

use crosspoint::badge::Kiosk;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;

use crate::members::Directory;

#[derive(Deserialize)]
pub struct KioskDonation {
    pub card_barcode: Option<String>,
    pub amount_cents: i64,
    pub tap_token: String,
}

pub async fn donate(inb: Inbound, cart: &Cart, directory: &Directory) -> Result<Outbound, Glitch> {
    let kiosk = inb.badge::<Kiosk>().ok_or(Glitch::unauthorized())?.clone();
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?.to_owned();
    let donation: KioskDonation = inb.json().await?;

    let user_id: String = directory
        .member_by_barcode(&kiosk.tenant_id, donation.card_barcode.as_deref())
        .await
        .ok()
        .flatten()
        .map(|m| m.user_id)
        .unwrap_or_else(|| "guest".into());

    let key = scoped(&kiosk.tenant_id, &user_id, "/v1/kiosk/donations", &k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let receipt = crate::terminal::capture(&kiosk.terminal_id, &donation.tap_token, donation.amount_cents).await?;
    tracing::info!(terminal = %kiosk.terminal_id, member = %user_id, "kiosk donation captured");
    cart.put(key.storage_key(), &serde_json::to_vec(&receipt).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &receipt))
}
