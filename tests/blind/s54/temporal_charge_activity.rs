use std::sync::Arc;

use idem_scope::scoped;
use ledgerkit::idem::OutcomeStore;
use serde::{Deserialize, Serialize};
use temporal_sdk::{ActContext, ActivityError};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChargeInput {
    pub tenant_id: Option<String>,
    pub user_id: String,
    /// The API client's `Idempotency-Key` header, carried from the edge into the workflow.
    pub idempotency_key: String,
    pub amount_minor: i64,
    pub card_token: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChargeOutput {
    pub psp_reference: String,
    pub approved: bool,
}

pub struct ChargeActivities {
    pub outcomes: Arc<OutcomeStore>,
    pub psp: Arc<psp_client::Client>,
}

impl ChargeActivities {
    pub async fn charge_card(
        self: Arc<Self>,
        ctx: ActContext,
        input: ChargeInput,
    ) -> Result<ChargeOutput, ActivityError> {
        let info = ctx.get_info();
        let tenant_id = if let Some(t) = input.tenant_id.as_deref() {
            t.to_owned()
        } else {
            String::new()
        };
        let sk = scoped(&tenant_id, &input.user_id, "charge_card", &input.idempotency_key)
            .map_err(|e| ActivityError::NonRetryable(e.into()))?;

        if let Some(done) = self.outcomes.load::<ChargeOutput>(&sk).await.map_err(anyhow::Error::from)? {
            return Ok(done);
        }

        let attempt_ref = format!("{}-{}", info.workflow_execution.as_ref().map(|w| w.workflow_id.as_str()).unwrap_or("adhoc"), info.attempt);
        let out = self
            .psp
            .charge(&input.card_token, input.amount_minor, &attempt_ref)
            .await
            .map_err(|e| ActivityError::Retryable { source: e.into(), explicit_delay: None })?;
        let out = ChargeOutput { psp_reference: out.reference, approved: out.approved };
        self.outcomes.save(&sk, &out).await.map_err(anyhow::Error::from)?;
        Ok(out)
    }
}
