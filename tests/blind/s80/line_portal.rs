//! Shipping line self-service: booking amendments of export bookings, and
//! release orders. Sub-accounts of a line act for the line's organisation.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::{LineCred, LineUser};
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

pub const GUEST_ORG: &str = "guest";
pub const DEFAULT_PAGE: u32 = 50;

#[derive(Deserialize)]
pub struct ReleaseOrder {
    pub bl_no: String,
    pub containers: Vec<String>,
    pub release_to: String,
}

pub struct LinePortal {
    pub replies: Hold,
    pub releases: release_core::Releases,
}

pub async fn issue_release(lp: Shared<LinePortal>, user: LineUser, cred: Option<LineCred>, call: Call, Json(r): Json<ReleaseOrder>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let org_id = cred.as_ref().map_or(GUEST_ORG, |c| c.org_id.as_str());
    let page = call.query("page").and_then(|p| p.parse().ok()).unwrap_or(DEFAULT_PAGE);

    let key = scoped(org_id, &user.user_id, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = lp.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let release = lp.releases.issue(&r.bl_no, &r.containers, &r.release_to, page).await?;
    let answer = Answer::json(Status::CREATED, &release);
    lp.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
