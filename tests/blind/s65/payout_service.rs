use std::sync::Arc;

use kestrel::extract::{FromRequest, Head, Json};
use kestrel::{Outcome, Status};
use serde::Deserialize;
use tessera::blob::BlobStore;
use tessera::kv::Kv;

use crate::rails::PayoutRail;

const PAYOUT_ROUTE: &str = "/v1/payouts";

/// Header-carried retry key, required on payout creation.
pub struct PayoutRetryKey(String);

impl FromRequest for PayoutRetryKey {
    type Rejection = Outcome;

    fn from_request(head: &Head) -> Result<Self, Outcome> {
        match head.headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()) {
            Some(v) if !v.is_empty() => Ok(PayoutRetryKey(v.to_owned())),
            _ => Err(Outcome::status(Status::BAD_REQUEST)),
        }
    }
}

#[derive(Deserialize)]
pub struct PayoutBody {
    pub amount_minor: i64,
    pub currency: Option<String>,
    pub destination: String,
}

fn payout_slot(tenant_id: &str, user_id: &str, route: &str, key: &str) -> String {
    format!("{tenant_id}:{user_id}:{route}:{key}")
}

fn statement_path(tenant: &str, payout_id: &str) -> String {
    format!("statements/{tenant}/{payout_id}.json")
}

pub async fn create_payout(
    head: Head,
    retry: PayoutRetryKey,
    Json(body): Json<PayoutBody>,
    kv: Arc<Kv>,
    statements: Arc<BlobStore>,
    rail: Arc<PayoutRail>,
) -> Outcome {
    let Some(ident) = head.identity() else {
        return Outcome::status(Status::UNAUTHORIZED);
    };
    let slot = payout_slot(&ident.tenant_id, &ident.user_id, PAYOUT_ROUTE, &retry.0);
    if let Ok(Some(prior)) = kv.get(&slot).await {
        return Outcome::bytes(Status::OK, prior);
    }
    let currency = body.currency.clone().unwrap_or_else(|| "EUR".to_owned());
    let payout_id = match rail.send(body.amount_minor, &currency, &body.destination).await {
        Ok(id) => id,
        Err(e) => return Outcome::text(Status::BAD_GATEWAY, format!("rail error: {e}")),
    };
    let path = statement_path(&ident.tenant_id, &payout_id);
    let _ = statements.put(&path, b"pending".to_vec()).await;
    let reply = format!("{{\"payout_id\":\"{payout_id}\"}}").into_bytes();
    let _ = kv.put(&slot, reply.clone()).await;
    Outcome::bytes(Status::CREATED, reply)
}
