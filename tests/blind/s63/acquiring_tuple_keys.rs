use std::sync::Arc;

use cistern::tuple::{TupleVat, Pair, Quad};
use idem_scope::Problem;
use serde::Deserialize;
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

fn charge_slot(c: &Caller, client_key: &str) -> (String, &'static str, String) {
    (c.merchant_id.clone(), "charge", client_key.to_owned())
}

fn capture_slot(c: &Caller, client_key: &str) -> (String, String, &'static str, String) {
    (c.merchant_id.clone(), c.api_key_id.clone(), "capture", client_key.to_owned())
}

pub struct Acquiring {
    replies: Arc<TupleVat>,
    gateway: Arc<acquirer::Gateway>,
}

impl Acquiring {
    pub async fn charge(&self, ctx: Ctx, caller: Caller) -> Result<Reply, Problem> {
        let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let slot = charge_slot(&caller, key);
        if let Some(done) = self.replies.get(&slot).await {
            return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
        }
        let auth = self.gateway.authorize(&caller.merchant_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.replies.put(&slot, auth.to_json()).await;
        Ok(Reply::bytes(Status::CREATED, auth.to_json()))
    }

    pub async fn capture(&self, ctx: Ctx, caller: Caller) -> Result<Reply, Problem> {
        let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let slot = capture_slot(&caller, key);
        if let Some(done) = self.replies.get(&slot).await {
            return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
        }
        let cap = self.gateway.capture(&caller.merchant_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.replies.put(&slot, cap.to_json()).await;
        Ok(Reply::bytes(Status::OK, cap.to_json()))
    }
}

#[derive(Clone)]
pub struct Stores {
    /// Keyed by (tenant_id, key). Introduced for the settlement batch API.
    pub settle_replies: Arc<Pair>,
    /// Keyed by (tenant_id, user_id, route, key).
    pub adjust_replies: Arc<Quad>,
    pub settlement: Arc<settlement::Engine>,
}

#[derive(Deserialize)]
pub struct SettleReq {
    pub batch_id: String,
}

pub async fn settle_batch(ctx: Ctx, caller: Caller, State(st): State<Stores>, Json(req): Json<SettleReq>) -> Result<Reply, Problem> {
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let entry = st
        .settle_replies
        .entry(&caller.tenant_id, client_key)
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = entry.value() {
        return Ok(Reply::bytes(Status::OK, done.to_vec()).header("Idempotent-Replayed", "true"));
    }
    let report = st.settlement.settle(&caller.tenant_id, &req.batch_id).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    entry.fill(report.to_json()).await;
    Ok(Reply::json(Status::OK, &report))
}

pub async fn adjust_batch(ctx: Ctx, caller: Caller, State(st): State<Stores>, Json(req): Json<SettleReq>) -> Result<Reply, Problem> {
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let route = "adjust_batch";
    let entry = st
        .adjust_replies
        .entry(&caller.tenant_id, &caller.user_id, route, client_key)
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = entry.value() {
        return Ok(Reply::bytes(Status::OK, done.to_vec()).header("Idempotent-Replayed", "true"));
    }
    let report = st.settlement.adjust(&caller.tenant_id, &req.batch_id).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    entry.fill(report.to_json()).await;
    Ok(Reply::json(Status::OK, &report))
}
