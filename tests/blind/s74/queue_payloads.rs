//! Refund worker: refunds requested from the owner app arrive over the queue.

use serde::Deserialize;
use silage::bunker::Bunker;
use tracing::debug;

use crate::billing::Ledger;

#[derive(Deserialize)]
pub struct RefundJob {
    pub org_id: String,
    pub user_id: String,
    pub invoice_id: String,
    pub idempotency_key: String,
    pub amount_cents: i64,
}

pub struct Workers {
    pub done: Bunker,
    pub ledger: Ledger,
}

#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    #[error("store: {0}")]
    Store(#[from] silage::StoreError),
    #[error("ledger: {0}")]
    Ledger(#[from] crate::billing::LedgerError),
}

pub async fn handle_refund(job: RefundJob, st: &Workers) -> Result<(), WorkerError> {
    debug!(key = %job.idempotency_key, invoice = %job.invoice_id, "refund job");
    // The ledger writes the done-marker itself when the refund posts.
    if st.done.exists(&job.idempotency_key).await? {
        return Ok(());
    }
    st.ledger
        .refund(&job.org_id, &job.user_id, &job.invoice_id, job.amount_cents, &job.idempotency_key)
        .await?;
    Ok(())
}
