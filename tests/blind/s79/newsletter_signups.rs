//! Newsletter sign-ups from the station website footer and the app.

use crosspoint::badge::Session;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;

use crate::stations::Stations;

const ANON: &str = "anon";

#[derive(Deserialize)]
pub struct Signup {
    pub email: String,
    pub lists: Vec<String>,
    pub page_size: Option<u16>,
}

pub async fn sign_up(inb: Inbound, cart: &Cart, stations: &Stations) -> Result<Outbound, Glitch> {
    let station = stations.by_host(inb.host().unwrap_or_default()).ok_or(Glitch::not_found("station"))?;
    let sub = inb.badge::<Session>().and_then(|s| s.sub.clone()).unwrap_or_else(|| ANON.to_owned());
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?;

    let key = scoped(&station.tenant_id, &sub, "newsletter-signup", k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let form: Signup = inb.json().await?;
    let digest_size = form.page_size.unwrap_or_default();
    let subscribed = crate::mailer::subscribe(&station.tenant_id, &form.email, &form.lists, digest_size).await?;
    cart.put(key.storage_key(), &serde_json::to_vec(&subscribed).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &subscribed))
}
