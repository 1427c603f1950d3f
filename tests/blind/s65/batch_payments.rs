use std::sync::Arc;

use idem_scope::scoped;
use kestrel::extract::{Head, Json};
use kestrel::{Outcome, Status};
use serde::{Deserialize, Serialize};
use tessera::ledger::Ledger;

use crate::rails::{PayoutRail, RailError};

#[derive(Deserialize)]
pub struct BatchLine {
    /// The client's idempotency key for this line (same semantics as the Idempotency-Key header).
    pub idempotency_key: String,
    pub iban: String,
    pub amount_minor: i64,
}

#[derive(Serialize)]
pub struct LineResult {
    pub index: usize,
    pub status: &'static str,
}

pub struct BatchApi {
    ledger: Arc<Ledger>,
    rail: Arc<PayoutRail>,
}

impl BatchApi {
    pub async fn submit(&self, head: Head, Json(lines): Json<Vec<BatchLine>>) -> Outcome {
        let Some(who) = head.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let mut results = Vec::with_capacity(lines.len());
        for (index, line) in lines.iter().enumerate() {
            let Ok(key) = scoped(&who.tenant_id, &who.user_id, "batch_payout", &line.idempotency_key) else {
                results.push(LineResult { index, status: "invalid_key" });
                continue;
            };
            match self.ledger.try_acquire(key.storage_key()).await {
                Ok(true) => {}
                Ok(false) => {
                    results.push(LineResult { index, status: "in_progress" });
                    continue;
                }
                Err(_) => {
                    results.push(LineResult { index, status: "unavailable" });
                    continue;
                }
            }
            let iban: String = line.iban.chars().filter(|c| !c.is_whitespace()).collect();
            if iban.len() < 15 {
                results.push(LineResult { index, status: "bad_iban" });
                continue;
            }
            let status = match self.rail.send(&iban, line.amount_minor).await {
                Ok(_) => "sent",
                Err(RailError::Rejected) => "rejected",
                Err(_) => "retry",
            };
            let _ = self.ledger.commit(key.storage_key(), status.as_bytes()).await;
            results.push(LineResult { index, status });
        }
        Outcome::json(Status::MULTI_STATUS, &results)
    }
}
