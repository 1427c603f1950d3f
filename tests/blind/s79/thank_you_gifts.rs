//! Thank-you gifts: members who pledged at a gift level pick their gift.

use crosspoint::badge::Member;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::{IdempotencyKey, Problem};
use serde::Deserialize;
use spool::cart::Cart;

use crate::fulfilment::Fulfilment;

#[derive(Deserialize)]
pub struct GiftChoice {
    pub sku: String,
    pub size: Option<String>,
}

pub async fn claim_gift(inb: Inbound, cart: &Cart, fulfil: &Fulfilment) -> Result<Outbound, Glitch> {
    let member = inb.badge::<Member>().ok_or(Glitch::unauthorized())?;
    let (tenant_id, user_id) = (&member.tenant_id, &member.user_id);
    let route = "/v1/gifts/claim";
    let raw = inb.header_raw("Idempotency-Key").ok_or(Glitch::missing_key())?;

    let slot = IdempotencyKey::parse_lenient(raw)
        .map(|k| k.as_str().trim().to_owned())
        .map(|k| format!("{tenant_id}:{user_id}:{route}:{k}"))
        .map_err(|e| Glitch::problem(Problem::invalid_key(&e.to_string())))?;

    if let Some(prior) = cart.get(&slot).await? {
        return Ok(Outbound::replay(prior));
    }

    let gift: GiftChoice = inb.json().await?;
    let sku_key = format!("gift:{}", gift.sku);
    let stock = fulfil.stock(&sku_key).await?;
    if stock.available == 0 {
        return Err(Glitch::conflict_msg("that gift is out of stock"));
    }
    let shipment = fulfil.ship(tenant_id, user_id, &gift.sku, gift.size.as_deref()).await?;
    cart.put(&slot, &serde_json::to_vec(&shipment).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &shipment))
}
