//! Transshipment relay requests: a line asks to move boxes from the feeder
//! call to a mainline call (or the other way round) at this terminal.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::LineUser;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Relay {
    pub containers: Vec<String>,
    pub from_call: String,
    pub to_call: String,
    pub pol: String,
    pub pod: String,
}

pub struct Transship {
    pub replies: Hold,
    pub stowage: stowage::Planner,
}

pub async fn relay(t: Shared<Transship>, line: LineUser, call: Call, Json(r): Json<Relay>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let [org, user] = [&line.org_id, &line.user_id].map(|s| s.trim_end_matches(':'));
    let [pol, pod] = [&r.pol, &r.pod].map(|s| s.trim().to_ascii_uppercase());

    let key = scoped(org, user, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = t.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let plan = t.stowage.relay(&r.containers, &r.from_call, &r.to_call, &pol, &pod).await?;
    let answer = Answer::json(Status::ACCEPTED, &plan);
    t.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
