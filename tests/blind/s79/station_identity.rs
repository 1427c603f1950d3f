//! Station identity: resolves which member station a request belongs to from
//! its host name, for the public pledge-page widgets embedded on partner
//! sites.

use crosspoint::badge::Member;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;

use crate::stations::Directory;

pub const ORG_NOT_FOUND: &str = "ORG_NOT_FOUND";

fn org_of(inb: &Inbound, directory: &Directory) -> String {
    inb.host().and_then(|h| directory.org_for_host(h)).map(|o| o.org_id.clone()).unwrap_or(ORG_NOT_FOUND.to_string())
}

fn station_label(inb: &Inbound, directory: &Directory) -> String {
    inb.host().and_then(|h| directory.org_for_host(h)).map(|o| o.call_sign.clone()).unwrap_or_else(|| "unknown".to_owned())
}

#[derive(Deserialize)]
pub struct WidgetPledge {
    pub amount_cents: i64,
    pub card_token: String,
}

pub async fn widget_pledge(inb: Inbound, cart: &Cart, directory: &Directory) -> Result<Outbound, Glitch> {
    let member = inb.badge::<Member>().ok_or(Glitch::unauthorized())?.clone();
    let org_id = org_of(&inb, directory);
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?.to_owned();
    tracing::info!(station = %station_label(&inb, directory), "widget pledge");

    let key = scoped(&org_id, &member.user_id, "/v1/widget/pledges", &k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let pledge: WidgetPledge = inb.json().await?;
    let receipt = crate::gateway::charge_token(&org_id, &pledge.card_token, pledge.amount_cents).await?;
    cart.put(key.storage_key(), &serde_json::to_vec(&receipt).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &receipt))
}
