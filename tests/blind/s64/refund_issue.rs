use std::time::Duration;

use idem_scope::Problem;
use moraine::auth::Caller;
use moraine::extract::{Head, Json, Query};
use moraine::{Ctx, Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;
use tracing::info;

#[derive(Deserialize)]
pub struct RefundBody {
    pub charge_id: String,
    pub amount_minor: i64,
}

#[derive(Deserialize)]
pub struct ListParams {
    pub page_size: Option<u32>,
}

pub struct RefundState {
    pub locker: Locker,
    pub ledger: crate::ledger::LedgerApi,
}

fn client_key(head: &Head) -> Option<String> {
    head.headers()
        .get("x-idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

pub async fn issue_refund(ctx: Ctx<RefundState>, caller: Caller, head: Head, Json(body): Json<RefundBody>) -> Reply {
    let Some(key) = client_key(&head) else {
        return Reply::problem(Problem::missing_key());
    };
    info!(idempotency_key = %key, charge = %body.charge_id, "refund requested");
    let org_id = caller.org_id().to_owned();
    let slot = (org_id.clone(), key.clone());

    match ctx.state.locker.claim(&slot, Duration::from_secs(300)).await {
        Ok(true) => {}
        Ok(false) => return Reply::problem(Problem::in_progress(&key)),
        Err(_) => return Reply::status(Status::SERVICE_UNAVAILABLE),
    }
    let outcome = ctx.state.ledger.refund(&org_id, &body.charge_id, body.amount_minor).await;
    match outcome {
        Ok(r) => {
            let _ = ctx.state.locker.complete(&slot, &serde_json::to_vec(&r).unwrap_or_default()).await;
            Reply::json(Status::CREATED, &r)
        }
        Err(_) => {
            let _ = ctx.state.locker.release(&slot).await;
            Reply::status(Status::BAD_GATEWAY)
        }
    }
}

pub async fn list_refunds(ctx: Ctx<RefundState>, caller: Caller, Query(p): Query<ListParams>) -> Reply {
    let page_size = p.page_size.unwrap_or_default().clamp(1, 200);
    let rows = ctx.state.ledger.refunds(caller.org_id(), page_size).await.unwrap_or_default();
    Reply::json(Status::OK, &rows)
}
