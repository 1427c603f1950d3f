use anyhow::{bail, Context};
use idem_scope::scoped;

use crate::psp::PspClient;
use crate::records::RecordStore;

#[derive(Debug, Clone, serde::Deserialize)]
pub struct RefundJob {
    pub merchant_id: String,
    pub api_key_id: String,
    pub idempotency_key: String,
    pub payment_id: String,
    pub amount_minor: i64,
}

pub struct RefundExecutor {
    records: RecordStore,
    psp: PspClient,
}

impl RefundExecutor {
    pub fn new(records: RecordStore, psp: PspClient) -> Self {
        Self { records, psp }
    }

    pub async fn execute(&self, job: &RefundJob) -> anyhow::Result<()> {
        let key = scoped(&job.merchant_id, &job.api_key_id, "refund", &job.idempotency_key)
            .context("refund job carries an invalid scope")?;
        self.records.begin(&key).await?;

        let payment = self
            .psp
            .payment(&job.merchant_id, &job.payment_id)
            .await
            .context("payment lookup")?;
        if payment.refundable_minor < job.amount_minor {
            bail!("refund of {} exceeds refundable {}", job.amount_minor, payment.refundable_minor);
        }
        let refund = self.psp.refund(&job.payment_id, job.amount_minor).await?;
        self.records.mark_completed(&key, &refund).await?;
        tracing::info!(payment = %job.payment_id, refund = %refund.id, "refund executed");
        Ok(())
    }
}
