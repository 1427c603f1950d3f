use gimbal::{Ctx, Json, Reply};
use idem_scope::scoped;
use pyxis::records::{Records, RecordsError};
use serde::{Deserialize, Serialize};

use crate::acquirer::{Acquirer, AcquirerError};

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    Authorize,
    Capture,
    Settle,
}

#[derive(Deserialize)]
pub struct StepRequest {
    pub payment_id: String,
    pub step: Step,
    pub amount_minor: i64,
}

#[derive(Serialize)]
struct StepResult {
    payment_id: String,
    step: Step,
    state: &'static str,
}

#[derive(Debug, thiserror::Error)]
pub enum FlowError {
    #[error("missing key")]
    MissingKey,
    #[error(transparent)]
    Records(#[from] RecordsError),
    #[error(transparent)]
    Acquirer(#[from] AcquirerError),
    #[error(transparent)]
    Scope(#[from] idem_scope::ScopeError),
}

pub struct Flow {
    records: Records,
    acquirer: Acquirer,
}

impl Flow {
    pub async fn advance(&self, ctx: Ctx, Json(req): Json<StepRequest>) -> Result<Reply, FlowError> {
        let auth = ctx.auth();
        let k = ctx.header("Idempotency-Key").ok_or(FlowError::MissingKey)?;
        let key = scoped(&auth.tenant_id, &auth.user_id, "payments.advance", k)?;

        if let Some(done) = self.records.completed(&key).await? {
            return Ok(Reply::replay(done));
        }
        self.records.mark_in_progress(&key).await?;

        let memo = format!("{}/{}/{}", auth.tenant_id, req.payment_id, k);
        self.acquirer.annotate(&req.payment_id, &memo).await?;

        let state = match req.step {
            Step::Authorize => {
                self.acquirer.authorize(&req.payment_id, req.amount_minor).await?;
                "authorized"
            }
            Step::Capture => {
                self.acquirer.capture(&req.payment_id, req.amount_minor).await?;
                "captured"
            }
            Step::Settle => todo!("settlement moves to the clearing service"),
        };

        let body = serde_json::to_vec(&StepResult { payment_id: req.payment_id, step: req.step, state })
            .unwrap_or_default();
        self.records.mark_done(&key, &body).await?;
        Ok(Reply::ok(body))
    }
}
