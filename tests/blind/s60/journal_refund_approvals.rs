use std::panic::AssertUnwindSafe;

use futures::FutureExt;
use gimbal::{Ctx, Json, Reply};
use idem_scope::scoped;
use pyxis::journal::Journal;
use serde::Deserialize;

use crate::refunds::{Approver, RefundError, Refunds};

#[derive(Deserialize)]
pub struct Approval {
    pub refund_id: String,
    pub approve: bool,
    pub note: Option<String>,
}

pub struct Approvals {
    journal: Journal,
    refunds: Refunds,
    approver: Approver,
}

impl Approvals {
    pub async fn decide(&self, ctx: Ctx, Json(a): Json<Approval>) -> Result<Reply, RefundError> {
        let auth = ctx.auth();
        let k = ctx.header("Idempotency-Key").ok_or(RefundError::MissingKey)?;
        let key = scoped(&auth.tenant_id, &auth.user_id, "refunds.approve", k)?;

        self.journal.begin(&key).await?;
        let refund = self.refunds.load(&auth.tenant_id, &a.refund_id).await?;
        if refund.is_final() {
            if refund.approved_by(&auth.user_id) {
                return Ok(Reply::ok(refund.to_json()));
            }
            return Err(RefundError::AlreadyDecided(format!("{} (request {})", a.refund_id, k)));
        }
        let outcome = self.approver.record(&refund, &auth.user_id, a.approve, a.note.as_deref()).await?;
        self.journal.finish(&key, &outcome.to_json()).await?;
        Ok(Reply::ok(outcome.to_json()))
    }

    pub async fn escalate(&self, ctx: Ctx, Json(a): Json<Approval>) -> Result<Reply, RefundError> {
        let auth = ctx.auth();
        let k = ctx.header("Idempotency-Key").ok_or(RefundError::MissingKey)?;
        let key = scoped(&auth.tenant_id, &auth.user_id, "refunds.escalate", k)?;

        self.journal.begin(&key).await?;
        let work = AssertUnwindSafe(async {
            let refund = self.refunds.load(&auth.tenant_id, &a.refund_id).await?;
            self.approver.escalate(&refund, &auth.user_id).await
        })
        .catch_unwind()
        .await;

        match work {
            Ok(Ok(outcome)) => {
                self.journal.finish(&key, &outcome.to_json()).await?;
                Ok(Reply::accepted(outcome.to_json()))
            }
            Ok(Err(e)) => {
                self.journal.abandon(&key).await?;
                Err(e)
            }
            Err(panic) => {
                let _ = self.journal.abandon(&key).await;
                std::panic::resume_unwind(panic)
            }
        }
    }
}
