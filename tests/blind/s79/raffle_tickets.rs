//! Drive raffle: listeners buy raffle tickets for the pledge-drive prize
//! draw from the station app. Buying two tickets twice is two purchases.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use crosspoint::badge::Listener;
use crosspoint::extract::Form;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use serde::Deserialize;
use spool::cart::Cart;

#[derive(Deserialize, Hash)]
pub struct TicketPurchase {
    pub raffle_id: String,
    pub quantity: u8,
    pub card_token: String,
    pub phone: String,
}

pub async fn buy_tickets(inb: Inbound, dedup: &Cart) -> Result<Outbound, Glitch> {
    let l = inb.badge::<Listener>().ok_or(Glitch::unauthorized())?.clone();
    let route = inb.route_template().to_owned();
    let Form(purchase): Form<TicketPurchase> = inb.extract().await?;

    let mut h = DefaultHasher::new();
    purchase.hash(&mut h);
    let slot = format!("{}/{}/{}/{:016x}", l.tenant_id, l.user_id, route, h.finish());

    if let Some(prior) = dedup.get(&slot).await? {
        return Ok(Outbound::replay(prior));
    }
    let tickets = crate::raffle::sell(&l.tenant_id, &purchase.raffle_id, purchase.quantity, &purchase.card_token).await?;
    dedup.put_ttl(&slot, &serde_json::to_vec(&tickets).unwrap_or_default(), std::time::Duration::from_secs(3_600)).await?;
    Ok(Outbound::json(Status::CREATED, &tickets))
}
