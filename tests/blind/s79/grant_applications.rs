//! Community grants: staff file grant applications for local producers;
//! a producer can also file their own.

use crosspoint::badge::{Staff, Producer};
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;

const NOBODY: &str = "nobody";

#[derive(Deserialize)]
pub struct Application {
    pub org_id: String,
    pub project: String,
    pub amount_cents: i64,
    pub on_behalf_of: Option<String>,
}

pub async fn file_application(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let staff = inb.badge::<Staff>();
    let app: Application = inb.json().await?;
    let actor = staff.map(|s| s.user_id.as_str()).unwrap_or(NOBODY);
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?;

    let key = scoped(&app.org_id, actor, "grant-application", k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let filed = crate::grants::file(&app.org_id, &app.project, app.amount_cents).await?;
    cart.put(key.storage_key(), &serde_json::to_vec(&filed).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &filed))
}

pub async fn file_own_application(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let producer = inb.badge::<Producer>().ok_or(Glitch::unauthorized())?.clone();
    let app: Application = inb.json().await?;
    let on_behalf = app.on_behalf_of.clone().unwrap_or_else(|| producer.user_id.clone());
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?;

    let key = scoped(&producer.org_id, &on_behalf, "grant-application", k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let filed = crate::grants::file(&producer.org_id, &app.project, app.amount_cents).await?;
    cart.put(key.storage_key(), &serde_json::to_vec(&filed).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &filed))
}
