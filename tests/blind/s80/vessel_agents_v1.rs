//! Legacy v1 API for vessel agencies, kept for agencies that have not moved
//! to v2. The API gateway authenticates the agency and forwards the agency
//! user (blank for the agency's master login) in `X-Agent-User`.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Agency;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct EtaUpdate {
    pub call_ref: String,
    pub eta_local: String,
    pub reason: Option<String>,
}

pub struct V1 {
    pub replies: Hold,
    pub calls: call_core::Calls,
}

pub async fn update_eta(v1: Shared<V1>, agency: Agency, call: Call, Json(u): Json<EtaUpdate>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let user_id = call.header("X-Agent-User").map(str::trim).filter(|u| !u.is_empty()).unwrap_or("*");
    let tz = call.header("X-Timezone").filter(|t| !t.is_empty()).unwrap_or("UTC");

    let key = scoped(&agency.account_id, user_id, "/v1/eta", k).map_err(Snag::bad_request)?;
    if let Some(prev) = v1.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let updated = v1.calls.update_eta(&u.call_ref, &u.eta_local, tz, u.reason.as_deref()).await?;
    let answer = Answer::json(Status::OK, &updated);
    v1.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
