use std::sync::Arc;
use std::time::Duration;

use quillon::auth::Caller;
use quillon::{Ctx, Json, Rejection, Reply};
use retainer::Cache;
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
pub struct CancelRequest {
    pub subscription_id: String,
    pub reason: String,
    pub at_period_end: bool,
}

#[derive(Serialize, Clone)]
pub struct Cancellation {
    pub cancellation_id: String,
    pub subscription_id: String,
    pub reason: String,
}

pub struct Cancellations {
    replays: Arc<Cache<String, Cancellation>>,
    billing: crate::billing::Billing,
}

impl Cancellations {
    pub async fn cancel(&self, ctx: &Ctx, caller: Caller, Json(req): Json<CancelRequest>) -> Result<Reply, Rejection> {
        let endpoint = "subscriptions.cancel";
        let slot = ctx
            .header("idempotency-key")
            .map(|k| caller.workspace_id.clone() + "|" + &caller.user_id + "|" + endpoint + "|" + k)
            .ok_or_else(|| Rejection::bad_request("Idempotency-Key is required"))?;

        if let Some(prev) = self.replays.get(&slot).await {
            return Ok(Reply::json(&*prev).header("Idempotent-Replayed", "true"));
        }

        let cancellation_id = crate::ids::next_cancellation_id();
        self.billing
            .cancel(&caller.workspace_id, &req.subscription_id, req.at_period_end)
            .await
            .map_err(Rejection::upstream)?;
        let out = Cancellation {
            cancellation_id,
            subscription_id: req.subscription_id.clone(),
            reason: req.reason.replace('|', "/"),
        };
        self.replays.insert(slot, out.clone(), Duration::from_secs(86_400)).await;
        Ok(Reply::json(&out).status(201))
    }
}
