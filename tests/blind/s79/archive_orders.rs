//! Archive shop: members order DVD or print copies of past programmes.

use crosspoint::badge::Member;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use serde::{Deserialize, Serialize};
use spool::cart::Cart;

use crate::shop::Shop;

/// Joins parts with the record separator.
fn glue<I, S>(parts: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    parts.into_iter().fold(String::new(), |acc, p| acc + p.as_ref() + "\u{1e}")
}

#[derive(Deserialize)]
pub struct CopyOrder {
    pub program_id: String,
    pub format: String,
    pub gift_note: Option<String>,
    pub ship_to: String,
}

#[derive(Serialize)]
pub struct OrderPlaced {
    pub order_id: String,
    pub receipt_no: String,
}

pub async fn order_copy(inb: Inbound, cart: &Cart, shop: &Shop) -> Result<Outbound, Glitch> {
    let m = inb.badge::<Member>().ok_or(Glitch::unauthorized())?;
    let key = inb.header("X-Idempotency-Key").ok_or(Glitch::missing_key())?;
    let form: CopyOrder = inb.form().await?;
    let note = form.gift_note.clone().unwrap_or_default();

    let slot = glue([m.tenant_id.as_str(), m.user_id.as_str(), "archive-order", key]);
    if let Some(hit) = cart.get(&slot).await? {
        return Ok(Outbound::replay(hit));
    }

    let ship_to = form.ship_to.replace('|', " ");
    let order = shop.place(&m.tenant_id, &form.program_id, &form.format, &ship_to, &note).await?;
    let receipt_no = format!("AR-{}-{}", m.tenant_id, order.id);
    shop.stamp_receipt(&order.id, &receipt_no).await?;

    let placed = OrderPlaced { order_id: order.id, receipt_no };
    cart.put(&slot, &serde_json::to_vec(&placed).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &placed))
}

/// Shelf labels for the fulfilment room print the same way.
pub fn shelf_label(format: &str, program_id: &str) -> String {
    glue([format, program_id])
}
