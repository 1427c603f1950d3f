use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use larder::pantry::Pantry;
use serde::{Deserialize, Serialize};
use tamarind::auth::Caller;
use tamarind::extract::Form;
use tamarind::{Reply, Req};

#[derive(Deserialize, Serialize)]
pub struct Feedback {
    pub topic: String,
    pub rating: u8,
    pub comment: String,
}

pub struct FeedbackInbox {
    submissions: Pantry,
}

impl FeedbackInbox {
    /// POST /feedback (HTML form). Browsers resubmit the form on back/forward.
    pub async fn submit(&self, req: Req, caller: Caller, Form(form): Form<Feedback>) -> Result<Reply, Reply> {
        let slot = serde_json::to_vec(&form)
            .ok()
            .map(|bytes| format!("{:016x}", museair::hash(&bytes, 7)))
            .and_then(|h| scoped(&caller.tenant_id, &caller.user_id, "feedback.submit", &h).ok())
            .ok_or_else(|| Reply::status(500))?;

        if self.submissions.get(slot.storage_key()).await.map_err(Reply::internal)?.is_some() {
            return Ok(Reply::redirect("/feedback/thanks"));
        }
        let body_fp = Fingerprint::of("feedback.submit", req.body());
        tracing::info!(topic = %form.topic, rating = form.rating, fp = ?body_fp.as_bytes(), "feedback received");
        self.submissions
            .put(slot.storage_key(), form.comment.as_bytes(), Duration::from_secs(7 * 86_400))
            .await
            .map_err(Reply::internal)?;
        Ok(Reply::redirect("/feedback/thanks"))
    }

    /// POST /api/feedback (JSON API); the API requires an Idempotency-Key.
    pub async fn submit_api(&self, req: Req, caller: Caller) -> Result<Reply, Reply> {
        let k = req.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let key = scoped(&caller.tenant_id, &caller.user_id, "feedback.submit", k)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        let form: Feedback = req.json()?;
        self.submissions
            .put(key.storage_key(), form.comment.as_bytes(), Duration::from_secs(7 * 86_400))
            .await
            .map_err(Reply::internal)?;
        Ok(Reply::status(202))
    }
}
