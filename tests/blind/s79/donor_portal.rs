//! Donor portal: members update the card used for their sustaining pledge.

use crosspoint::badge::MaybeMember;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use spool::cart::Cart;

const IDEM: &str = "Idempotency-Key";

#[derive(Deserialize)]
pub struct CardUpdate {
    pub card_token: String,
    pub billing_zip: String,
}

pub async fn update_payment_method(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let Some(m) = inb.badge::<MaybeMember>().and_then(|mm| mm.0.as_ref()) else {
        return Err(Glitch::unauthorized());
    };

    let scope_for = |k: &str| scoped(&m.tenant_id, &m.user_id, "", k);
    let key = inb
        .header(IDEM)
        .ok_or(Glitch::problem(Problem::missing_key()))
        .and_then(|k| scope_for(k).map_err(Glitch::scope))?;

    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let update: CardUpdate = inb.json().await?;
    let vaulted = crate::gateway::vault_card(&m.tenant_id, &m.user_id, &update.card_token, &update.billing_zip).await?;
    cart.put(key.storage_key(), &serde_json::to_vec(&vaulted).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::OK, &vaulted))
}
