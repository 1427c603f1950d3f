use std::sync::Arc;

use idem_scope::scoped;
use lintel::{Answer, Call, Code};
use miniserde::{json, Deserialize, Serialize};
use skerry::ledger::Ledger;

use crate::payments::{Rails, TransferLine};

#[derive(Deserialize)]
struct BatchItem {
    to_iban: String,
    amount_minor: u64,
    reference: String,
    /// Per-item idempotency key; a resubmitted batch repeats every item's key.
    idempotency_key: String,
}

#[derive(Deserialize)]
struct Batch {
    items: Vec<BatchItem>,
}

#[derive(Serialize)]
struct ItemResult {
    reference: String,
    status: String,
}

pub struct BatchTransfers {
    ledger: Arc<Ledger>,
    rails: Arc<Rails>,
}

impl BatchTransfers {
    pub async fn submit(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Ok(batch) = json::from_str::<Batch>(&String::from_utf8_lossy(call.body())) else {
            return Answer::status(Code::BAD_REQUEST);
        };

        let mut results = Vec::with_capacity(batch.items.len());
        for item in &batch.items {
            let Ok(slot) = scoped(&who.tenant_id, &who.user_id, "batch_transfer", &item.idempotency_key) else {
                results.push(ItemResult { reference: item.reference.clone(), status: "invalid_key".into() });
                continue;
            };
            match self.ledger.try_acquire(slot.storage_key()).await {
                Ok(true) => {}
                Ok(false) => {
                    results.push(ItemResult { reference: item.reference.clone(), status: "duplicate".into() });
                    continue;
                }
                Err(_) => {
                    results.push(ItemResult { reference: item.reference.clone(), status: "retry".into() });
                    continue;
                }
            }
            let Some(line) = TransferLine::parse(&item.to_iban, item.amount_minor, &item.reference) else {
                results.push(ItemResult { reference: item.reference.clone(), status: "invalid_iban".into() });
                continue;
            };
            let status = match self.rails.send(&who.tenant_id, line).await {
                Ok(r) => r.status,
                Err(e) => e.to_string(),
            };
            let _ = self.ledger.commit(slot.storage_key(), status.as_bytes()).await;
            results.push(ItemResult { reference: item.reference.clone(), status });
        }
        Answer::text(Code::MULTI_STATUS, &json::to_string(&results))
    }
}
