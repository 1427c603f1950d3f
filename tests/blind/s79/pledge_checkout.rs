//! Pledge drive checkout: one-time and sustaining pledges taken while a
//! drive is on air. The phone room and the web form both post here.

use crosspoint::badge::Member;
use crosspoint::header::HeaderName;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::{Fingerprint, Problem, Record};
use serde::Deserialize;
use spool::cart::Cart;

use crate::gateway::Gateway;

const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");
const ROUTE: &str = "/v1/pledges";

#[derive(Deserialize)]
pub struct Pledge {
    pub amount_cents: i64,
    pub sustaining: bool,
    pub drive_id: String,
    pub premium_sku: Option<String>,
}

pub async fn checkout(mut inb: Inbound, cart: &Cart, gateway: &Gateway) -> Result<Outbound, Glitch> {
    let member = inb.badge::<Member>().cloned().ok_or(Glitch::unauthorized())?;
    let client = match inb.header(IDEMPOTENCY_KEY.as_str()) {
        Some(k) => k.to_owned(),
        None => return Err(Glitch::problem(Problem::missing_key())),
    };
    let raw = inb.bytes().await?;

    let slot = serde_xdr::to_bytes(&(member.tenant_id.as_str(), client.as_str())).map_err(Glitch::internal)?;
    let fingerprint = Fingerprint::of(ROUTE, &raw);
    match cart.get_record(&slot).await? {
        Some(rec) if rec.fingerprint != fingerprint => {
            return Err(Glitch::problem(Problem::mismatch(&client)));
        }
        Some(rec) => return Ok(Outbound::replay(rec.response.unwrap_or_default())),
        None => {}
    }

    let pledge: Pledge = serde_json::from_slice(&raw).map_err(Glitch::bad_request)?;
    let receipt = gateway.charge(&member, pledge.amount_cents, pledge.sustaining).await?;
    let body = serde_json::to_vec(&receipt).unwrap_or_default();
    cart.put_record(&slot, &Record::completed(fingerprint).with_response(body)).await?;
    Ok(Outbound::json(Status::CREATED, &receipt))
}
