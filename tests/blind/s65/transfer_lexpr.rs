use std::sync::Arc;

use kestrel::extract::{FromRequest, Head, Json};
use kestrel::{Outcome, Status};
use serde::Deserialize;
use tessera::kv::Kv;

use crate::treasury::Treasury;

pub struct TransferKey(String);

impl FromRequest for TransferKey {
    type Rejection = Status;

    fn from_request(head: &Head) -> Result<Self, Status> {
        let v = head.headers.get("X-Idempotency-Key").ok_or(Status::BAD_REQUEST)?;
        Ok(TransferKey(v.to_str().map_err(|_| Status::BAD_REQUEST)?.to_owned()))
    }
}

#[derive(Deserialize)]
pub struct TransferBody {
    pub from_account: String,
    pub to_account: String,
    pub amount_minor: i64,
}

pub async fn transfer(head: Head, key: TransferKey, Json(body): Json<TransferBody>, kv: Arc<Kv>, audit_log: Arc<Kv>, treasury: Arc<Treasury>) -> Outcome {
    let Some(ident) = head.identity() else {
        return Outcome::status(Status::UNAUTHORIZED);
    };
    let route = "transfer";
    let lookup = match serde_lexpr::to_string(&(&ident.tenant_id, route, &key.0)) {
        Ok(s) => s,
        Err(_) => return Outcome::status(Status::INTERNAL_SERVER_ERROR),
    };
    if let Ok(Some(done)) = kv.get(&lookup).await {
        return Outcome::bytes(Status::OK, done);
    }
    let moved = treasury.move_funds(&body.from_account, &body.to_account, body.amount_minor).await;
    let audit = serde_lexpr::to_string(&(&ident.tenant_id, &ident.user_id, route, body.amount_minor)).unwrap_or_default();
    let _ = audit_log.put(&format!("audit/{}", moved.id), audit.into_bytes()).await;
    let bytes = kestrel::json::to_vec(&moved).unwrap_or_default();
    let _ = kv.put(&lookup, bytes.clone()).await;
    Outcome::bytes(Status::CREATED, bytes)
}
