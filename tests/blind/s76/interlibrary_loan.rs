//! Interlibrary-loan requests. Requests can come from walk-in terminals in
//! the library that are not tied to a home campus.

use idem_scope::scoped;
use lectern::card::MaybeStudent;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;

use crate::library::IllBroker;

const PUBLIC_CAMPUS: &str = "public";
const DEFAULT_LOCALE: &str = "en";

#[derive(Deserialize)]
pub struct IllIn {
    pub isbn: Option<String>,
    pub citation: String,
    pub pickup_branch: String,
}

pub struct Ill {
    pub pouch: Pouch,
    pub broker: IllBroker,
}

pub async fn request_loan(ask: &Ask, ill: &Ill) -> Result<Tell, Hitch> {
    let maybe = ask.badge::<MaybeStudent>()?;
    let user_id = maybe.user_id().ok_or(Hitch::unauthorized())?;
    let key = ask.head("Idempotency-Key").ok_or(Hitch::bad_request("Idempotency-Key"))?;
    let tenant_id = maybe.tenant_id().unwrap_or(PUBLIC_CAMPUS);
    let locale = ask.head("accept-language").unwrap_or(DEFAULT_LOCALE);

    let sk = scoped(tenant_id, user_id, "/v1/library/ill-requests", key)?;
    if let Some(done) = ill.pouch.get(sk.storage_key()).await? {
        return Ok(Tell::bytes(Mark::OK, done));
    }
    let input: IllIn = ask.json()?;
    let placed = ill.broker.place(tenant_id, user_id, &input.citation, input.isbn.as_deref(), &input.pickup_branch, locale).await?;
    let body = serde_json::to_vec(&placed)?;
    ill.pouch.put(sk.storage_key(), &body).await?;
    Ok(Tell::bytes(Mark::CREATED, body))
}
