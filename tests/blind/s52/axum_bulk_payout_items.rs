use std::collections::HashSet;

use axum::extract::{Json, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::auth::Caller;
use crate::payouts::{PayoutEngine, PayoutOutcome};
use crate::store::ItemReplayStore;

#[derive(Deserialize, Serialize)]
pub struct PayoutItem {
    pub beneficiary: String,
    pub amount_minor: i64,
    pub currency: String,
}

#[derive(Deserialize)]
pub struct BulkPayout {
    pub items: Vec<PayoutItem>,
}

#[derive(Clone)]
pub struct BulkState {
    pub engine: PayoutEngine,
    pub item_replays: ItemReplayStore,
    pub limiter: std::sync::Arc<tokio::sync::Semaphore>,
}

pub async fn bulk_payout(
    State(st): State<BulkState>,
    caller: Caller,
    Json(req): Json<BulkPayout>,
) -> Result<Json<Vec<PayoutOutcome>>, StatusCode> {
    let _permit = st.limiter.acquire().await.map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
    let mut outcomes = Vec::with_capacity(req.items.len());
    let mut beneficiaries = HashSet::new();
    for item in &req.items {
        let encoded = serde_json::to_vec(item).map_err(|_| StatusCode::BAD_REQUEST)?;
        let slot = format!("{}:{}:{}:{:x}", caller.tenant_id, caller.user_id, "bulk_payout.item", Sha256::digest(&encoded));
        beneficiaries.insert(item.beneficiary.clone());
        if let Some(done) = st.item_replays.get(&slot).await.map_err(|_| StatusCode::SERVICE_UNAVAILABLE)? {
            outcomes.push(done);
            continue;
        }
        let outcome = st
            .engine
            .pay(&caller.tenant_id, item)
            .await
            .map_err(|_| StatusCode::BAD_GATEWAY)?;
        st.item_replays.set(&slot, &outcome).await.map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
        outcomes.push(outcome);
    }
    tracing::info!(count = outcomes.len(), distinct = beneficiaries.len(), "bulk payout done");
    Ok(Json(outcomes))
}
