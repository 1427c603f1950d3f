//! Live events: members buy tickets to station concerts and tapings.

use crosspoint::badge::Member;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use futures_util::StreamExt;
use idem_scope::{scoped, ClaimGuard};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use spool::cart::Cart;

const ROUTE: &str = "/v1/events/tickets";

#[derive(Deserialize)]
pub struct TicketOrder {
    pub event_id: String,
    pub seats: u8,
    pub section: String,
}

pub async fn buy_tickets(inb: Inbound, cart: Cart) -> Result<Outbound, Glitch> {
    let m = inb.badge::<Member>().ok_or(Glitch::unauthorized())?.clone();

    let mut hasher = Sha256::new();
    let mut buf = Vec::new();
    let mut stream = inb.body_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk?;
        hasher.update(&chunk);
        buf.extend_from_slice(&chunk);
    }

    let key = scoped(&m.tenant_id, &m.user_id, ROUTE, &format!("{:x}", hasher.finalize())).map_err(Glitch::scope)?;
    if !cart.claim(key.storage_key()).await? {
        return Err(Glitch::conflict());
    }
    let guard = ClaimGuard::new({
        let cart = cart.clone();
        let k = key.storage_key().to_owned();
        move || {
            tokio::spawn(async move {
                let _ = cart.release(&k).await;
            });
        }
    });

    let order: TicketOrder = serde_json::from_slice(&buf).map_err(Glitch::bad_request)?;
    let tickets = crate::box_office::issue(&m.tenant_id, &order.event_id, order.seats, &order.section).await?;
    cart.complete(key.storage_key(), &serde_json::to_vec(&tickets).unwrap_or_default()).await?;
    guard.complete();
    Ok(Outbound::json(Status::CREATED, &tickets))
}
