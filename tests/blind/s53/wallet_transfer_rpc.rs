use std::sync::Arc;

use serde::{Deserialize, Serialize};
use warp::{Filter, Rejection, Reply};

use crate::accounts::AccountCtx;
use crate::replay::ReplayTable;
use crate::wallet::{Transfer, WalletService};

#[derive(Debug, Deserialize)]
pub struct TransferCall {
    pub from_wallet: String,
    pub to_wallet: String,
    pub amount_minor: i64,
    #[serde(rename = "Idempotency-Key")]
    pub client_ref: String,
}

#[derive(Debug, Serialize, Deserialize, Clone)]
pub struct TransferResult {
    pub transfer_id: String,
    pub settled: bool,
}

#[derive(Clone)]
pub struct RpcState {
    pub replays: Arc<ReplayTable>,
    pub wallet: Arc<WalletService>,
}

async fn handle_transfer(ctx: AccountCtx, call: TransferCall, st: RpcState) -> Result<impl Reply, Rejection> {
    let replay_slot = (ctx.account_id.as_str(), call.client_ref.as_str());
    if let Some(prev) = st.replays.load::<TransferResult>(&replay_slot).await.map_err(crate::rejections::internal)? {
        return Ok(warp::reply::json(&prev));
    }
    let transfer: Transfer = st
        .wallet
        .transfer(&ctx.account_id, &call.from_wallet, &call.to_wallet, call.amount_minor)
        .await
        .map_err(crate::rejections::upstream)?;
    let out = TransferResult { transfer_id: transfer.id, settled: transfer.settled };
    st.replays.store(&replay_slot, &out).await.map_err(crate::rejections::internal)?;
    Ok(warp::reply::json(&out))
}

pub fn routes(st: RpcState) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("rpc" / "wallet.transfer")
        .and(warp::post())
        .and(crate::accounts::with_account())
        .and(warp::body::json::<TransferCall>())
        .and(warp::any().map(move || st.clone()))
        .and_then(handle_transfer)
}
