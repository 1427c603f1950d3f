use std::sync::Arc;
use std::time::Duration;

use idem_scope::scoped;
use kestrel::{Exchange, Outcome, Status};
use serde::Deserialize;
use tessera::kv::Kv;

use crate::psp::{Psp, RefundReceipt};

#[derive(Deserialize)]
struct RefundBody {
    charge_id: String,
    amount_minor: i64,
}

pub struct AsyncRefunds {
    kv: Arc<Kv>,
    psp: Arc<Psp>,
}

impl AsyncRefunds {
    /// Accepts the refund and finishes it in the background.
    pub async fn accept(&self, ex: &Exchange) -> Outcome {
        let Some(who) = ex.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let Some(retry) = ex.header("Idempotency-Key").map(str::to_owned) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "refund", &retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let body = ex.body().to_vec();
        let kv = Arc::clone(&self.kv);
        let psp = Arc::clone(&self.psp);
        tokio::spawn(async move {
            let Ok(Some(_ticket)) = kv.obtain(key.storage_key(), Duration::from_secs(300)).await else {
                return;
            };
            let refund: RefundBody = kestrel::json::from_slice(&body).expect("validated upstream");
            let receipt: RefundReceipt = psp.refund(&refund.charge_id, refund.amount_minor).await;
            let bytes = kestrel::json::to_vec(&receipt).unwrap_or_default();
            let _ = kv.complete(key.storage_key(), bytes).await;
        });
        log::info!("refund accepted for key {retry}");
        Outcome::status(Status::ACCEPTED).with_header("Location", &format!("/v1/refunds/by-key/{}", retry))
    }
}
