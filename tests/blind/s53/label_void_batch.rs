use idem_scope::{scoped, ScopedKey};
use serde::{Deserialize, Serialize};

use crate::auth::Claims;
use crate::carriers::VoidClient;
use crate::replay::ItemLedger;

#[derive(Deserialize)]
pub struct VoidItem {
    pub tracking_number: String,
    /// Per-item idempotency key supplied by the client (the Idempotency-Key of
    /// the single-item endpoint).
    pub idempotency_key: String,
    pub reason: Option<String>,
}

#[derive(Serialize)]
pub struct VoidOutcome {
    pub tracking_number: String,
    pub voided: bool,
    pub note: Option<String>,
}

pub async fn void_batch(
    claims: &Claims,
    items: Vec<VoidItem>,
    ledger: &ItemLedger,
    carrier: &VoidClient,
) -> anyhow::Result<Vec<VoidOutcome>> {
    let mut outcomes = Vec::with_capacity(items.len());
    for item in items {
        let key: ScopedKey = match scoped(&claims.tenant_id, &claims.sub, "labels.void", &item.idempotency_key) {
            Ok(k) => k,
            Err(e) => {
                outcomes.push(VoidOutcome { tracking_number: item.tracking_number, voided: false, note: Some(e.to_string()) });
                continue;
            }
        };
        if !ledger.acquire(&key).await? {
            outcomes.push(VoidOutcome { tracking_number: item.tracking_number, voided: false, note: Some(format!("{} is still in progress", item.idempotency_key)) });
            continue;
        }
        if item.tracking_number.trim().is_empty() {
            outcomes.push(VoidOutcome { tracking_number: item.tracking_number, voided: false, note: Some("empty tracking number".into()) });
            continue;
        }
        let result = carrier.void(&claims.tenant_id, &item.tracking_number, item.reason.as_deref()).await;
        let outcome = match result {
            Ok(()) => VoidOutcome { tracking_number: item.tracking_number, voided: true, note: None },
            Err(e) => VoidOutcome { tracking_number: item.tracking_number, voided: false, note: Some(e.to_string()) },
        };
        ledger.mark_done(&key, &serde_json::to_vec(&outcome)?).await?;
        outcomes.push(outcome);
    }
    Ok(outcomes)
}
