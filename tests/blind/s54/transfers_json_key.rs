use std::sync::Arc;

use gatehouse::http::{Json, Request, Response, State, StatusCode};
use gatehouse::Auth;
use ledgerkit::idem::TypedReplay;
use ledgerkit::kv::Kv;
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, Serialize)]
pub struct CreateTransfer {
    /// Client-generated idempotency key for this transfer (same role as the `Idempotency-Key` header).
    pub idempotency_key: String,
    pub from_account: String,
    pub to_account: String,
    pub amount_minor: i64,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq)]
pub struct TransferKey {
    pub tenant_id: String,
    pub user_id: String,
    pub key: String,
}

#[derive(Clone)]
pub struct TransferState {
    pub seen: Arc<TypedReplay<TransferKey, serde_json::Value>>,
    pub kv: Arc<Kv>,
    pub core: Arc<corebank::Client>,
}

pub async fn create_transfer(
    State(st): State<TransferState>,
    auth: Auth,
    Json(input): Json<CreateTransfer>,
) -> Result<Response, gatehouse::Error> {
    let k = TransferKey { tenant_id: auth.tenant_id.clone(), user_id: auth.user_id.clone(), key: input.idempotency_key.clone() };
    if let Some(prev) = st.seen.get(&k).await? {
        return Ok(Response::json(StatusCode::OK, &prev));
    }
    let receipt = st.core.transfer(&auth.tenant_id, &input.from_account, &input.to_account, input.amount_minor).await?;
    let body = serde_json::to_value(&receipt)?;
    st.seen.insert(k, body.clone()).await?;
    Ok(Response::json(StatusCode::CREATED, &body))
}

pub async fn cancel_transfer(State(st): State<TransferState>, auth: Auth, req: Request) -> Result<Response, gatehouse::Error> {
    let key = req.header_str("Idempotency-Key").ok_or_else(|| gatehouse::Error::bad_request("Idempotency-Key required"))?;
    let transfer_id = req.path_param("id").ok_or_else(|| gatehouse::Error::not_found())?;
    let slot = format!("{}:{}", auth.tenant_id, key);
    if let Some(prev) = st.kv.get(&slot).await? {
        return Ok(Response::bytes(StatusCode::OK, prev));
    }
    let out = st.core.cancel(&auth.tenant_id, transfer_id).await?;
    let bytes = serde_json::to_vec(&out)?;
    st.kv.put(&slot, bytes.clone()).await?;
    tracing::info!(idempotency_key = %key, transfer_id, "transfer cancelled");
    Ok(Response::bytes(StatusCode::OK, bytes))
}
