use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use idem_scope::scoped;
use serde::Deserialize;

use crate::accounts::AccountDirectory;
use crate::refunds::RefundLedger;
use crate::signing::verify_psp_signature;
use crate::store::ReplayRecords;

#[derive(Deserialize)]
struct PspEvent {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    account: String,
    data: serde_json::Value,
}

#[derive(Clone)]
pub struct RefundsApp {
    pub records: ReplayRecords,
    pub ledger: RefundLedger,
    pub accounts: AccountDirectory,
    pub webhook_secret: Vec<u8>,
}

pub async fn create_refund(State(app): State<RefundsApp>, headers: HeaderMap, body: Bytes) -> Result<String, StatusCode> {
    let key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).ok_or(StatusCode::BAD_REQUEST)?;
    let acct = app.accounts.from_api_key(&headers).ok_or(StatusCode::UNAUTHORIZED)?;
    let scoped_key = scoped(&acct.tenant_id, &acct.api_key_id, "refund.create", key).map_err(|_| StatusCode::BAD_REQUEST)?;
    if let Some(prev) = app.records.get(scoped_key.storage_key()).await.map_err(|_| StatusCode::SERVICE_UNAVAILABLE)? {
        return Ok(prev);
    }
    let refund = app.ledger.create(&acct.tenant_id, &body).await.map_err(|_| StatusCode::UNPROCESSABLE_ENTITY)?;
    app.records.put(scoped_key.storage_key(), &refund).await.map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
    Ok(refund)
}

pub async fn psp_webhook(State(app): State<RefundsApp>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let Some(sig) = headers.get("psp-signature").and_then(|v| v.to_str().ok()) else {
        return StatusCode::BAD_REQUEST;
    };
    if !verify_psp_signature(&app.webhook_secret, &body, sig) {
        return StatusCode::UNAUTHORIZED;
    }
    let Ok(evt) = serde_json::from_slice::<PspEvent>(&body) else {
        return StatusCode::BAD_REQUEST;
    };
    match app.records.exists(&evt.id).await {
        Ok(true) => return StatusCode::OK,
        Ok(false) => {}
        Err(_) => return StatusCode::SERVICE_UNAVAILABLE,
    }
    match evt.kind.as_str() {
        "refund.updated" | "refund.failed" => match app.ledger.apply_update(&evt.id, &evt.account, &evt.data).await {
            Ok(()) => StatusCode::OK,
            Err(_) => StatusCode::INTERNAL_SERVER_ERROR,
        },
        _ => StatusCode::OK,
    }
}
