use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Fingerprint};
use larder::pantry::Pantry;
use rpc_router::{FromResources, HandlerResult, IntoParams, RpcParams};
use serde::{Deserialize, Serialize};

#[derive(Clone, FromResources)]
pub struct WalletCtx {
    pub account_id: Option<String>,
    pub api_key_id: Option<String>,
    pub replays: Arc<Pantry>,
}

#[derive(Deserialize, Serialize, RpcParams)]
pub struct TopupParams {
    /// Idempotency key chosen by the client for this top-up.
    pub idempotency_key: String,
    pub amount_minor: i64,
    pub funding_source: String,
}

#[derive(Serialize)]
pub struct TopupResult {
    pub topup_id: String,
    pub state: &'static str,
}

pub async fn wallet_topup(ctx: WalletCtx, params: TopupParams) -> HandlerResult<TopupResult> {
    let account_id = ctx.account_id.as_deref().ok_or_else(|| rpc_router::Error::custom("no account"))?;
    let api_key_id = ctx.api_key_id.as_deref().ok_or_else(|| rpc_router::Error::custom("no api key"))?;
    // older SDKs append '#' attempt markers to the key
    let client_key = params.idempotency_key.trim_end_matches('#');

    let key = scoped(account_id, api_key_id, "wallet.topup", client_key)
        .map_err(|e| rpc_router::Error::custom(e.to_string()))?;
    let fingerprint = Fingerprint::of("wallet.topup", params.funding_source.as_bytes());

    if let Some(prev) = ctx.replays.get(key.storage_key()).await.map_err(rpc_router::Error::custom)? {
        let replayed: serde_json::Value = serde_json::from_slice(&prev).map_err(rpc_router::Error::custom)?;
        tracing::debug!(fingerprint = ?fingerprint.as_bytes(), "replaying top-up");
        return Ok(TopupResult { topup_id: replayed["topup_id"].as_str().unwrap_or_default().to_owned(), state: "replayed" });
    }

    let result = TopupResult { topup_id: format!("tu_{}", params.amount_minor), state: "pending" };
    let stored = serde_json::json!({ "topup_id": result.topup_id });
    ctx.replays
        .put(key.storage_key(), stored.to_string().as_bytes(), Duration::from_secs(86_400))
        .await
        .map_err(rpc_router::Error::custom)?;
    Ok(result)
}
