use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Fingerprint};
use larder::tally::Tally;
use rpc_router::{router_builder, FromResources, HandlerResult, IntoParams, Resources, Router, RpcParams};
use serde::{Deserialize, Serialize};

#[derive(Clone, FromResources)]
pub struct Ctx {
    pub tenant_id: Option<String>,
    pub user_id: Option<String>,
    pub tally: Arc<Tally>,
}

#[derive(Deserialize, Serialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    Card,
    Sepa,
    Wallet,
}

#[derive(Deserialize, Serialize, RpcParams)]
pub struct ChargeParams {
    /// The client's idempotency key for this charge (same contract as the
    /// REST API's `Idempotency-Key` header).
    pub request_token: String,
    pub amount_minor: i64,
    pub method: Method,
    pub memo: Option<String>,
}

#[derive(Serialize)]
pub struct ChargeResult {
    pub charge_id: String,
    pub memo: String,
}

pub async fn charge_create(ctx: Ctx, params: ChargeParams) -> HandlerResult<ChargeResult> {
    let tenant_id = ctx.tenant_id.clone().ok_or_else(|| rpc_router::Error::custom("unauthenticated"))?;
    let user_id = ctx.user_id.clone().ok_or_else(|| rpc_router::Error::custom("unauthenticated"))?;
    let key = scoped(&tenant_id, &user_id, "charge.create", &params.request_token)
        .map_err(|e| rpc_router::Error::custom(e.to_string()))?;
    let fp = Fingerprint::of("charge.create", &serde_json::to_vec(&params).unwrap_or_default());

    ctx.tally.reserve(key.storage_key(), &fp, Duration::from_secs(90)).await.map_err(rpc_router::Error::custom)?;

    let charge_id = match params.method {
        Method::Card => format!("ch_card_{}", params.amount_minor),
        Method::Wallet => format!("ch_wallet_{}", params.amount_minor),
        Method::Sepa => todo!("SEPA mandates are not live yet"),
    };
    let memo = params.memo.as_deref().unwrap_or("").replace(['\n', '|'], " ");
    let result = ChargeResult { charge_id, memo };

    let stored = serde_json::to_vec(&result).map_err(|e| rpc_router::Error::custom(e.to_string()))?;
    ctx.tally.commit(key.storage_key(), 200, &stored).await.map_err(rpc_router::Error::custom)?;
    Ok(result)
}

pub fn router() -> Router {
    router_builder!(charge_create).build()
}
