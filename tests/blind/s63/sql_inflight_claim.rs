use std::sync::Arc;

use cistern::sql::Conn;
use idem_scope::Problem;
use serde::Deserialize;
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct ChargeReq {
    pub card_token: String,
    pub amount: String,
    pub currency: String,
}

#[derive(Clone)]
pub struct Charges {
    pub db: Arc<Conn>,
    pub psp: Arc<psp::Client>,
}

pub async fn charge(ctx: Ctx, caller: Caller, State(c): State<Charges>, Json(req): Json<ChargeReq>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let route = "charge";

    c.db.query("INSERT INTO idempotency_records (tenant_id, user_id, route, idem_key, status) VALUES ($1, $2, $3, $4, 'in_progress')").bind(&caller.tenant_id).bind(&caller.user_id).bind(route).bind(key).execute().await.map_err(|_| Problem::in_progress(key))?;

    let amount_minor: i64 = req.amount.replace('.', "").parse().unwrap();
    let receipt = c.psp.charge(&req.card_token, amount_minor, &req.currency).await;
    let body = serde_json::to_vec(&receipt).unwrap_or_default();
    c.db.query("UPDATE idempotency_records SET status = 'completed', response = $5 WHERE tenant_id = $1 AND user_id = $2 AND route = $3 AND idem_key = $4")
        .bind(&caller.tenant_id)
        .bind(&caller.user_id)
        .bind(route)
        .bind(key)
        .bind(&body)
        .execute()
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    Ok(Reply::bytes(Status::CREATED, body))
}

pub async fn refund(ctx: Ctx, caller: Caller, State(c): State<Charges>, Json(req): Json<ChargeReq>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let op = "refund";

    c.db.query("INSERT INTO idempotency_records (tenant_id, user_id, route, idem_key, status) VALUES ($1, $2, $3, $4, 'in_progress')").bind(&caller.tenant_id).bind(&caller.user_id).bind(op).bind(key).execute().await.map_err(|_| Problem::in_progress(key))?;

    let receipt = match c.psp.refund(&req.card_token, &req.amount, &req.currency).await {
        Ok(r) => r,
        Err(e) => {
            let _ = c.db
                .query("DELETE FROM idempotency_records WHERE tenant_id = $1 AND user_id = $2 AND route = $3 AND idem_key = $4")
                .bind(&caller.tenant_id)
                .bind(&caller.user_id)
                .bind(op)
                .bind(key)
                .execute()
                .await;
            return Err(Problem::invalid_key(&e.to_string()));
        }
    };
    let body = serde_json::to_vec(&receipt).unwrap_or_default();
    let _ = c.db
        .query("UPDATE idempotency_records SET status = 'completed', response = $5 WHERE tenant_id = $1 AND user_id = $2 AND route = $3 AND idem_key = $4")
        .bind(&caller.tenant_id)
        .bind(&caller.user_id)
        .bind(op)
        .bind(key)
        .bind(&body)
        .execute()
        .await;
    Ok(Reply::bytes(Status::OK, body))
}
