use idem_scope::{scoped, Fingerprint};
use serde::Serialize;

use crate::claims::{ClaimOutcome, ClaimStore};
use crate::ledger::Ledger;

#[derive(Serialize)]
pub struct TransferReceipt {
    pub transfer_id: String,
    pub posted_at: String,
}

pub struct TransferService<S: ClaimStore> {
    claims: S,
    ledger: Ledger,
}

impl<S: ClaimStore> TransferService<S> {
    pub async fn transfer(
        &self,
        org_id: &str,
        caller_id: &str,
        idempotency_key: &str,
        raw: &[u8],
    ) -> Result<Vec<u8>, crate::ApiError> {
        let key = scoped(org_id, caller_id, "ledger.transfer", idempotency_key)?;
        let fp = Fingerprint::of("ledger.transfer", raw);
        let pending = match self.claims.claim(key, fp).await? {
            ClaimOutcome::Pending(pending) => pending,
            ClaimOutcome::Replay(body) => return Ok(body),
            ClaimOutcome::InFlight => return Err(crate::ApiError::Conflict),
            ClaimOutcome::Mismatch => return Err(crate::ApiError::KeyReused),
        };

        let cmd = serde_json::from_slice(raw)?;
        let posted = self.ledger.post(org_id, cmd).await?;
        let body = serde_json::to_vec(&TransferReceipt {
            transfer_id: posted.id,
            posted_at: posted.at.to_rfc3339(),
        })?;
        pending.complete(201, &body).await?;
        Ok(body)
    }
}
