//! Payout retries. Each retry attempt is recorded so the reconciliation job
//! can show the attempt history.

use granary::silo::Silo;
use idem_scope::scoped;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};
use uuid::Uuid;

pub async fn retry_payout(silo: &Silo, m: &Member, call: Call) -> Reply {
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    let Ok(key) = scoped(&m.org_id, &m.user_id, "payout.retry", k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let attempt = Uuid::new_v4();
    tracing::info!(attempt = %attempt, "retrying payout");
    let out = crate::payouts::retry(&m.org_id, call.body(), attempt).await;
    if let Ok(attempt_key) = scoped(&m.org_id, &m.user_id, "payout.retry", &attempt.to_string()) {
        let _ = silo.put(attempt_key.storage_key(), out.clone()).await;
    }
    let resource_id = Uuid::new_v4().to_string();
    let body = serde_json::json!({ "id": resource_id, "result": out });
    let _ = silo.put(key.storage_key(), body.to_string().into_bytes()).await;
    Reply::json(Status::Created, &body)
}
