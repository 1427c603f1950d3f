//! Zoo gift cards: purchase and balance lookup.

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use lagoon::tank::Tank;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::extractors::Caller;

const ROUTE: &str = "gift_cards.purchase";

#[derive(Serialize)]
struct CardSlot<'a>(&'a str, &'a str, &'a str);

#[derive(Deserialize)]
pub struct PurchaseRequest {
    amount_cents: u32,
    design: String,
    recipient_email: Option<String>,
}

#[derive(Deserialize)]
pub struct BalanceRequest {
    card_number: String,
    pin: String,
}

pub struct GiftCardDesk {
    pub replays: Tank,
    pub cards: Tank,
    pub issuer: crate::cards::Issuer,
}

pub async fn purchase(
    visit: Visit,
    Shared(desk): Shared<GiftCardDesk>,
    caller: Caller,
    Json(req): Json<PurchaseRequest>,
) -> Result<Reply, Fault> {
    let key = visit
        .header("X-Idempotency-Key")
        .ok_or_else(|| Fault::bad_request("X-Idempotency-Key required"))?;
    let slot = serde_json::to_string(&CardSlot(&caller.org_id, ROUTE, key)).map_err(Fault::internal)?;
    if let Some(prev) = desk.replays.get(&slot).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let card = desk
        .issuer
        .issue(&caller.org_id, req.amount_cents, &req.design, req.recipient_email.as_deref())
        .await?;
    let body = serde_json::to_vec(&card).map_err(Fault::internal)?;
    desk.replays.put(&slot, &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

pub async fn balance(Shared(desk): Shared<GiftCardDesk>, caller: Caller, Json(req): Json<BalanceRequest>) -> Result<Reply, Fault> {
    let card_ref = format!("{:x}", Sha256::digest(req.card_number.as_bytes()));
    let card = desk.cards.get(&card_ref).await?.ok_or_else(|| Fault::not_found("card"))?;
    let card: crate::cards::Card = serde_json::from_slice(&card).map_err(Fault::internal)?;
    if card.org_id != caller.org_id || !card.pin_matches(&req.pin) {
        return Err(Fault::not_found("card"));
    }
    Ok(Reply::json(Status::OK, &card.balance()))
}
