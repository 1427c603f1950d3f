//! Refunds and exchanges for cancelled or rescheduled performances.
//! Only box-office staff may call these routes.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use loft::batten::{Begun, Batten};
use proscenium::draw::JsonPart;
use proscenium::pass::Staff;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const DAY: Duration = Duration::from_secs(86_400);
const LEASE: Duration = Duration::from_secs(60);

#[derive(Deserialize)]
pub struct RefundRequest {
    pub order_id: String,
    pub amount_minor: i64,
    pub reason: String,
}

#[derive(Deserialize)]
pub struct ExchangeRequest {
    pub order_id: String,
    pub to_performance: String,
    pub seats: Vec<String>,
}

pub struct Desk {
    pub batten: Batten,
    pub payments: crate::payments::Gateway,
    pub orders: crate::orders::OrderBook,
}

fn client_key(cue: &Cue) -> Result<String, Flub> {
    let raw = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::from(Problem::missing_key()))?;
    Ok(raw.trim().to_owned())
}

pub async fn refund(cue: Cue, staff: Staff, JsonPart(req): JsonPart<RefundRequest>, desk: House<Desk>) -> Result<Curtain, Flub> {
    let key = client_key(&cue)?;
    let sk = scoped(&staff.org_id, &staff.user_id, "refund", &key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("refund", cue.body());
    match desk.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let refund = desk.payments.refund(&req.order_id, req.amount_minor, &req.reason).await?;
            let body = serde_json::to_vec(&refund).map_err(Flub::internal)?;
            held.complete(body.clone(), DAY).await?;
            Ok(Curtain::bytes(201, body))
        }
    }
}

pub async fn exchange(cue: Cue, staff: Staff, JsonPart(req): JsonPart<ExchangeRequest>, desk: House<Desk>) -> Result<Curtain, Flub> {
    let key = client_key(&cue)?;
    let sk = scoped(&staff.org_id, &staff.user_id, "default", &key).map_err(Flub::bad_request)?;
    let fp = Fingerprint::of("exchange", cue.body());
    match desk.batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(previous) => Ok(Curtain::replay(previous)),
        Begun::Fresh(held) => {
            let moved = desk.orders.exchange(&req.order_id, &req.to_performance, &req.seats).await?;
            let body = serde_json::to_vec(&moved).map_err(Flub::internal)?;
            held.complete(body.clone(), DAY).await?;
            Ok(Curtain::bytes(200, body))
        }
    }
}
