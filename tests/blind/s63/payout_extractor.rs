use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, IdempotencyKey, Problem};
use serde::Deserialize;
use wherry::auth::Caller;
use wherry::extract::{FromParts, Json, Parts, State};
use wherry::{Reply, Status};

/// The client's `Idempotency-Key`, parsed leniently (bare UUIDs are common).
pub struct IdemKey(pub String);

impl FromParts for IdemKey {
    type Rejection = Problem;

    fn from_parts(parts: &Parts) -> Result<Self, Problem> {
        let raw = parts.headers.get("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let parsed = IdempotencyKey::parse_lenient(raw.as_bytes()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        Ok(IdemKey(parsed.as_str().to_owned()))
    }
}

#[derive(Clone)]
pub struct App {
    pub vat: Arc<Vat>,
    pub payouts: Arc<payouts::Engine>,
}

#[derive(Deserialize)]
pub struct PayoutReq {
    pub destination: String,
    pub amount_minor: i64,
}

pub async fn create_payout(State(app): State<App>, caller: Caller, ik: IdemKey, Json(req): Json<PayoutReq>) -> Result<Reply, Problem> {
    let slot = format!("{}#{}#{}#{}", caller.org_id, caller.actor, "payout", ik.0);
    if let Some(done) = app.vat.get(&slot).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let receipt = app
        .payouts
        .send(&caller.org_id, &req.destination, req.amount_minor)
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = app.vat.put(&slot, receipt.to_bytes()).await;
    Ok(Reply::bytes(Status::CREATED, receipt.to_bytes()))
}

pub async fn cancel_payout(State(app): State<App>, caller: Caller, ik: IdemKey) -> Result<Reply, Problem> {
    let sk = scoped(&caller.org_id, &caller.actor, "payout_cancel", &ik.0).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let slot = format!("payouts/{}", sk.storage_key());
    if let Some(done) = app.vat.get(&slot).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let ack = app.payouts.cancel_latest(&caller.org_id).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = app.vat.put(&slot, ack.to_bytes()).await;
    Ok(Reply::bytes(Status::OK, ack.to_bytes()))
}
