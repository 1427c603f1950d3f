//! Bulk refunds after a service disruption ("everyone who tapped on line 4
//! between 07:00 and 09:00"). Uploaded by an operator as one batch.

use std::time::Duration;

use hopper::bay::Bay;
use idem_scope::scoped;
use miette::{ensure, miette, IntoDiagnostic, Result};
use wharf::badge::Operator;
use wharf::codec::Decode;
use wharf::{Answer, Code, Hail};

use crate::limits::Limits;
use crate::wallets::WalletBook;

const LEASE: Duration = Duration::from_secs(600);

#[derive(Decode)]
pub struct RefundItem {
    pub user_id: String,
    pub amount_minor: i64,
}

#[derive(Decode)]
pub struct RefundBatch {
    pub disruption_id: String,
    pub items: Vec<RefundItem>,
}

pub struct BatchRefunds {
    bay: Bay,
    limits: Limits,
    wallets: WalletBook,
}

impl BatchRefunds {
    pub async fn submit(&self, hail: Hail, op: Operator) -> Result<Answer> {
        let k = hail.header("Idempotency-Key").ok_or_else(|| miette!("missing Idempotency-Key"))?;
        let batch: RefundBatch = hail.json().into_diagnostic()?;
        let key = scoped(&op.org_id, &op.actor, "refunds.batch", k).into_diagnostic()?;

        self.bay.claim(key.storage_key(), LEASE).await.into_diagnostic()?;
        let total: i64 = batch.items.iter().map(|i| i.amount_minor).sum();
        ensure!(total <= self.limits.daily_refund_cap(&op.org_id), "batch of {total} exceeds the daily refund cap");

        let credited = self.wallets.credit_many(&op.org_id, &batch.disruption_id, &batch.items).await;
        let body = wharf::json!({ "credited": credited.len(), "total_minor": total }).to_string().into_bytes();
        self.bay.complete(key.storage_key(), &body).await.into_diagnostic()?;
        Ok(Answer::bytes(Code::Accepted, body))
    }

    pub async fn submit_small(&self, hail: Hail, op: Operator) -> Result<Answer> {
        let k = hail.header("Idempotency-Key").ok_or_else(|| miette!("missing Idempotency-Key"))?;
        let batch: RefundBatch = hail.json().into_diagnostic()?;
        ensure!(batch.items.len() <= 50, "use the bulk endpoint for more than 50 riders");
        let key = scoped(&op.org_id, &op.actor, "refunds.small", k).into_diagnostic()?;

        self.bay.claim(key.storage_key(), Duration::from_secs(60)).await.into_diagnostic()?;
        let credited = match self.wallets.try_credit_many(&op.org_id, &batch.disruption_id, &batch.items).await {
            Ok(c) => c,
            Err(e) => {
                let _ = self.bay.release(key.storage_key()).await;
                return Err(miette!("refund failed: {e}"));
            }
        };
        let body = wharf::json!({ "credited": credited }).to_string().into_bytes();
        self.bay.complete(key.storage_key(), &body).await.into_diagnostic()?;
        Ok(Answer::bytes(Code::Ok, body))
    }
}
