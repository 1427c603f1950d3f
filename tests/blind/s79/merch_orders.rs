//! Station shop: mugs, totes and the famous station umbrella.

use crosspoint::badge::Member;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::{scoped, Fingerprint};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use spool::cart::Cart;

#[derive(Deserialize)]
pub struct MerchOrder {
    pub lines: Vec<(String, u16)>,
    pub ship_to: String,
}

pub async fn order_merch(mut inb: Inbound, idem_cart: &Cart) -> Result<Outbound, Glitch> {
    let m = inb.badge::<Member>().ok_or(Glitch::unauthorized())?.clone();
    let fp_of = |b: &[u8]| hex::encode(Sha256::digest(b));
    let raw = inb.bytes().await?;

    let slot = scoped(&m.tenant_id, &m.user_id, "merch-order", &fp_of(&raw)).map_err(Glitch::scope)?;
    if let Some(prior) = idem_cart.get(slot.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }

    let order: MerchOrder = serde_json::from_slice(&raw).map_err(Glitch::bad_request)?;
    let placed = crate::shop::place_merch(&m.tenant_id, &m.user_id, &order.lines, &order.ship_to).await?;

    let fingerprint = Fingerprint::of("merch-order", &raw);
    idem_cart.put_fingerprint(slot.storage_key(), fingerprint.as_bytes()).await?;
    idem_cart.put(slot.storage_key(), &serde_json::to_vec(&placed).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &placed))
}
