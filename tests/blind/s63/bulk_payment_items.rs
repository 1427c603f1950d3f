use std::sync::Arc;
use std::time::Duration;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use serde::{Deserialize, Serialize};
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Reply, Status};

#[derive(Deserialize)]
pub struct BulkItem {
    /// The client's idempotency key for this line item (same semantics as the
    /// Idempotency-Key header on single payments).
    pub key: String,
    pub beneficiary: String,
    pub amount_minor: i64,
}

#[derive(Deserialize)]
pub struct BulkReq {
    pub items: Vec<BulkItem>,
}

#[derive(Serialize)]
pub enum ItemResult {
    Paid(String),
    Replayed(String),
    Rejected(String),
}

#[derive(Clone)]
pub struct BulkPayments {
    pub vat: Arc<Vat>,
    pub rails: Arc<rails::Client>,
}

pub async fn bulk_pay(caller: Caller, State(b): State<BulkPayments>, Json(req): Json<BulkReq>) -> Result<Reply, Problem> {
    let mut results = Vec::with_capacity(req.items.len());
    for item in &req.items {
        let sk = scoped(&caller.tenant_id, &caller.user_id, "bulk_pay_item", &item.key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        if let Some(done) = b.vat.get(sk.storage_key()).await.ok().flatten() {
            results.push(ItemResult::Replayed(String::from_utf8_lossy(&done).into_owned()));
            continue;
        }
        b.vat.set_nx(sk.storage_key(), b"in_progress".to_vec(), Duration::from_secs(300)).await.map_err(|_| Problem::in_progress(&item.key))?;

        if item.amount_minor <= 0 {
            results.push(ItemResult::Rejected(format!("item {}: amount must be positive", item.key)));
            continue;
        }
        match b.rails.pay(&caller.tenant_id, &item.beneficiary, item.amount_minor).await {
            Ok(payment_id) => {
                let _ = b.vat.set(sk.storage_key(), payment_id.clone().into_bytes()).await;
                results.push(ItemResult::Paid(payment_id));
            }
            Err(e) => {
                let _ = b.vat.del(sk.storage_key()).await;
                results.push(ItemResult::Rejected(e.to_string()));
            }
        }
    }
    Ok(Reply::json(Status::MULTI_STATUS, &results))
}
