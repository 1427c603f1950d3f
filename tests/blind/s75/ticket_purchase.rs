//! Ticket purchase endpoint of the box-office API.
//!
//! A patron buys seats for one performance. Retries of the same purchase carry
//! the same `Idempotency-Key` and must be answered with the first receipt.
use std::time::Duration;

use idem_scope::{Fingerprint, Problem, PROBLEM_CONTENT_TYPE};
use loft::batten::Batten;
use proscenium::draw::JsonPart;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::{Deserialize, Serialize};

const ROUTE: &str = "/v1/orders/tickets";
const REPLAY_TTL: Duration = Duration::from_secs(24 * 3600);

#[derive(Deserialize)]
pub struct PurchaseRequest {
    pub performance_id: String,
    pub seats: Vec<String>,
    pub promo: Option<String>,
}

#[derive(Serialize, Deserialize)]
pub struct PurchaseReceipt {
    pub order_id: String,
    pub total_minor: i64,
    pub currency: String,
}

pub struct Deps {
    pub replays: Batten,
    pub orders: crate::orders::OrderBook,
}

fn replay_slot(org: &str, user: &str, route: &str, client_key: &str) -> String {
    format!("{o}:{u}:{r}:{k}", o = org, u = user, r = route, k = client_key)
}

fn problem(status: u16, p: Problem) -> Curtain {
    Curtain::new(status)
        .content_type(PROBLEM_CONTENT_TYPE)
        .body(p.to_json())
}

pub async fn purchase(
    cue: Cue,
    patron: Patron,
    JsonPart(req): JsonPart<PurchaseRequest>,
    house: House<Deps>,
) -> Result<Curtain, Flub> {
    let Some(client_key) = cue.header("Idempotency-Key") else {
        return Ok(problem(400, Problem::missing_key()));
    };
    if client_key.len() > 255 {
        let reason = format!("key {client_key} is longer than 255 bytes");
        return Ok(problem(400, Problem::invalid_key(&reason)));
    }

    let slot = replay_slot(&patron.org_id, &patron.user_id, ROUTE, client_key);
    if let Some(stored) = house.replays.get(&slot).await? {
        return Ok(Curtain::bytes(200, stored).header("Idempotent-Replayed", "true"));
    }

    let fingerprint = Fingerprint::of(ROUTE, cue.body());
    let receipt = house
        .orders
        .place(&patron.org_id, &req.performance_id, &req.seats, req.promo.as_deref(), fingerprint.as_bytes())
        .await?;
    let body = serde_json::to_vec(&receipt).map_err(Flub::internal)?;
    house.replays.put(&slot, body.clone(), REPLAY_TTL).await?;
    tracing::info!(order = %receipt.order_id, idempotency_key = %client_key, "tickets purchased");
    Ok(Curtain::bytes(201, body))
}
