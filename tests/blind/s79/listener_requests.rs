//! Listener feedback and dedication requests from the station apps. The
//! app registers a device before it can post.

use crosspoint::badge::{Device, Listener};
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;

const GLOBAL_STATION: &str = "global";

#[derive(Deserialize)]
pub struct Dedication {
    pub to_name: String,
    pub message: String,
    pub show_id: String,
}

pub async fn post_dedication(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let tenant_id = inb.badge::<Listener>().map_or(GLOBAL_STATION, |l| l.tenant_id.as_str());
    let caller_id = inb.badge::<Device>().map(|d| d.client_id.as_str()).ok_or(Glitch::unauthorized())?;
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?;
    let locale = inb.header("Accept-Language").unwrap_or("default");

    let key = scoped(tenant_id, caller_id, "/v1/dedications", k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let d: Dedication = inb.json().await?;
    let show_path = d.show_id.trim_matches('/');
    let queued = crate::request_line::dedicate(tenant_id, show_path, &d.to_name, &d.message, locale).await?;
    cart.put(key.storage_key(), &serde_json::to_vec(&queued).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::ACCEPTED, &queued))
}
