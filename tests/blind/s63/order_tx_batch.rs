use std::sync::Arc;

use cistern::sql::Conn;
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct OrderLine {
    pub sku: String,
    pub qty: u32,
}

#[derive(Deserialize)]
pub struct PlaceOrder {
    pub lines: Vec<OrderLine>,
}

#[derive(Clone)]
pub struct OrderDb {
    pub db: Arc<Conn>,
}

/// Order rows and the reply row are written in one transaction; a dropped
/// transaction writes neither.
pub async fn place_order(ctx: Ctx, caller: Caller, State(o): State<OrderDb>, Json(req): Json<PlaceOrder>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.account_id, &caller.user_id, "place_order", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let cols = sk.columns();

    let mut tx = o.db.begin().await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let order_no: i64 = tx
        .query("INSERT INTO orders (account_id, placed_by) VALUES ($1, $2) RETURNING order_no")
        .bind(&caller.account_id)
        .bind(&caller.user_id)
        .fetch_one()
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    for line in &req.lines {
        tx.query("INSERT INTO order_lines (order_no, sku, qty) VALUES ($1, $2, $3)")
            .bind(order_no)
            .bind(&line.sku)
            .bind(line.qty as i32)
            .execute()
            .await
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    }
    let display_no = format!("ORD-{:08}", order_no);
    let response = serde_json::to_vec(&serde_json::json!({ "order": display_no })).unwrap_or_default();
    tx.query("INSERT INTO idempotency_records (scope_version, tenant_id, principal_id, route, ns, idem_key, status, response) VALUES ($1, $2, $3, $4, $5, $6, 'completed', $7)")
        .bind(cols.scope_version)
        .bind(cols.tenant_id)
        .bind(cols.principal_id)
        .bind(cols.route)
        .bind(cols.ns)
        .bind(cols.idem_key)
        .bind(&response)
        .execute()
        .await
        .map_err(|_| Problem::in_progress(key))?;
    tx.commit().await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    Ok(Reply::bytes(Status::CREATED, response))
}
