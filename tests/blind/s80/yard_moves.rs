//! Housekeeping yard moves requested by terminal customers with dedicated
//! yard blocks. Multi-terminal deployment: the terminal organisation is part
//! of the path (`/terminals/{org}/yard-moves`).

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Staff;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct MoveRequest {
    pub container_no: String,
    pub to_block: String,
    pub priority: u8,
}

pub struct Yard {
    pub replies: Hold,
    pub planner: yard_api::Client,
    pub grants: access::Grants,
}

pub async fn request_move(y: Shared<Yard>, staff: Staff, call: Call, Json(m): Json<MoveRequest>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let org_id = call.param("org").map(|o| o.trim_matches('/')).ok_or_else(|| Snag::bad_request("org"))?;
    if !y.grants.allows(&staff.sub, org_id).await? {
        return Err(Snag::forbidden());
    }
    let block = m.to_block.trim_matches('/');

    let key = scoped(org_id, &staff.sub, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = y.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let planned = y.planner.plan_move(org_id, &m.container_no, block, m.priority).await?;
    let answer = Answer::json(Status::ACCEPTED, &planned);
    y.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
