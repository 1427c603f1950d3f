use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::Problem;
use serde::Deserialize;
use wherry::auth::Caller;
use wherry::extract::{Json, Query, State};
use wherry::{Ctx, Reply, Status};

use crate::listing::ListCache;

#[derive(Deserialize)]
pub struct TransferReq {
    pub from_account: String,
    pub to_account: String,
    pub amount_minor: i64,
}

#[derive(Deserialize)]
pub struct ListQuery {
    pub cursor: Option<String>,
    pub limit: Option<u32>,
}

pub async fn submit_transfer(
    ctx: Ctx,
    caller: Caller,
    State(vat): State<Arc<Vat>>,
    Json(t): Json<TransferReq>,
) -> Result<Reply, Problem> {
    let tenant_id = &caller.tenant_id;
    let user_id = &caller.user_id;
    let op = "transfer";
    let slot = ctx
        .header("Idempotency-Key")
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(|k| format!("{tenant_id}.{user_id}.{op}.{k}"))
        .ok_or_else(Problem::missing_key)?;

    if let Some(done) = vat.get(&slot).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let receipt = crate::ledger::move_funds(tenant_id, &t.from_account, &t.to_account, t.amount_minor)
        .await
        .map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let _ = vat.put(&slot, receipt.clone()).await;
    Ok(Reply::bytes(Status::CREATED, receipt))
}

pub async fn list_transfers(caller: Caller, State(cache): State<Arc<ListCache>>, Query(q): Query<ListQuery>) -> Reply {
    let cursor = q.cursor.unwrap_or_default();
    let limit = q.limit.unwrap_or(50).min(500);
    let page_key = format!("transfers:{}:{}:{}:{}", caller.tenant_id, caller.user_id, cursor, limit);
    if let Some(page) = cache.get(&page_key) {
        return Reply::bytes(Status::OK, page);
    }
    let page = crate::ledger::page(&caller.tenant_id, &cursor, limit).await;
    cache.insert(page_key, page.clone());
    Reply::bytes(Status::OK, page)
}
