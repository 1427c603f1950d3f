use std::sync::Arc;

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use volo_http::http::HeaderMap;
use volo_http::server::extract::{Json, State};
use volo_http::server::route::{post, Router};

#[derive(Clone)]
pub struct WalletCtx {
    ledger: Arc<LedgerKv>,
    auth: Arc<Authn>,
}

#[derive(Deserialize)]
pub struct TopUp {
    amount_minor: i64,
    currency: String,
}

#[derive(Deserialize)]
pub struct SettlementEvent {
    event_id: String,
    tenant_id: String,
    user_id: String,
    amount_minor: i64,
}

async fn top_up(State(ctx): State<WalletCtx>, headers: HeaderMap, Json(req): Json<TopUp>) -> Result<String, Problem> {
    let principal = ctx.auth.principal_from(&headers)?;
    let client_ref = headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(Problem::missing_key)?;
    let key = scoped(&principal.tenant_id, &principal.user_id, "wallet.top_up", client_ref).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = ctx.ledger.lookup(&key).await {
        return Ok(done);
    }
    let receipt = ctx.ledger.credit(&principal.tenant_id, &principal.user_id, req.amount_minor, &req.currency).await;
    ctx.ledger.save(&key, &receipt).await;
    Ok(receipt)
}

/// The PSP re-sends settlements until we answer 2xx; reuse the wallet dedupe records.
async fn on_psp_settlement(State(ctx): State<WalletCtx>, Json(evt): Json<SettlementEvent>) -> Result<(), Problem> {
    let receipt = ctx.ledger.credit(&evt.tenant_id, &evt.user_id, evt.amount_minor, "EUR").await;
    ctx.ledger.save(&scoped(&evt.tenant_id, &evt.user_id, "wallet.top_up", &evt.event_id).map_err(|e| Problem::invalid_key(&e.to_string()))?, &receipt).await;
    Ok(())
}

pub fn router(ctx: WalletCtx) -> Router {
    Router::new()
        .route("/v1/wallet/top-ups", post(top_up))
        .route("/hooks/psp/settlement", post(on_psp_settlement))
        .with_state(ctx)
}
