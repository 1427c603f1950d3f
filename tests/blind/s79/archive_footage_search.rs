//! Saved footage searches: researchers save a search and get alerted when
//! new archive material matches.

use crosspoint::badge::Producer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;

#[derive(Deserialize)]
pub struct SavedSearch {
    pub query: String,
    pub alert: bool,
}

pub async fn save_search(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let p = inb.badge::<Producer>().ok_or(Glitch::unauthorized())?.clone();
    let clean = |s: &str| s.trim_matches('|').to_owned();
    let k = inb.header("Idempotency-Key").map(clean).ok_or(Glitch::missing_key())?;

    let key = scoped(&p.org_id, &p.user_id, "/v1/archive/searches", &k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let s: SavedSearch = inb.json().await?;
    let normalised_query = s.query.to_lowercase().replace('|', " OR ");
    let saved = crate::search::save(&p.org_id, &p.user_id, &normalised_query, s.alert).await?;
    cart.put(key.storage_key(), &serde_json::to_vec(&saved).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &saved))
}
