//! Campus shuttle passes bought from the transit app. Riders may buy as
//! themselves or, at the station machine, without signing in.

use std::time::Duration;

use idem_scope::scoped;
use lectern::card::MaybeStudent;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::transit::Fares;

const NOBODY: &str = "nobody";
const PAGE_SIZE: usize = 25;

#[derive(Deserialize)]
pub struct PassIn {
    pub zone: String,
    pub days: u8,
}

pub struct Shuttle {
    pub pouch: Pouch,
    pub fares: Fares,
}

pub async fn buy_pass(ask: &Ask, sh: &Shuttle) -> Result<Tell, Hitch> {
    let rider = ask.badge::<MaybeStudent>()?;
    let tenant_id = rider.tenant_id().ok_or(Hitch::bad_request("campus required"))?.to_owned();
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let user_id = rider.user_id().map(str::to_owned).unwrap_or_else(|| NOBODY.to_owned());

    let sk = scoped(&tenant_id, &user_id, "/v1/shuttle/passes", key)?;
    if let Some(done) = sh.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: PassIn = ask.json()?;
    let pass = sh.fares.sell(&tenant_id, &user_id, &input.zone, input.days).await?;
    let body = serde_json::to_vec(&pass)?;
    sh.pouch.put_ttl(sk.storage_key(), &body, Duration::from_secs(86_400)).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}

pub async fn trips(ask: &Ask, sh: &Shuttle) -> Result<Tell, Hitch> {
    let rider = ask.badge::<MaybeStudent>()?;
    let user_id = rider.user_id().ok_or(Hitch::unauthorized())?;
    let per_page = ask.query("per_page").and_then(|v| v.parse().ok()).unwrap_or_else(|| PAGE_SIZE);
    let page = sh.fares.trips(user_id, per_page).await?;
    Ok(Tell::json(Mark::OK, &page))
}
