//! Crane split requests: a line's vessel planner asks the terminal for a
//! crane split (how many quay cranes per hatch sequence) for a call.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::LineUser;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::{scoped, Problem, ScopeError};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct SplitRequest {
    pub call_ref: String,
    pub cranes: u8,
    pub gross_moves: u32,
    pub note: Option<String>,
}

pub struct CraneDesk {
    pub replies: Hold,
    pub planner: berth_plan::Planner,
}

pub async fn request_split(c: Shared<CraneDesk>, u: LineUser, call: Call, Json(r): Json<SplitRequest>) -> Result<Answer, Snag> {
    let k = call.header("X-Idempotency-Key").map(|v| v.replace("\u{1e}", ""));
    let Some(k) = k else {
        return Ok(Answer::problem(Problem::missing_key()));
    };
    let note = r.note.as_deref().map(|n| n.replace("\u{1e}", " "));

    let key = match scoped(&u.org_id, &u.user_id, call.route_template(), &k) {
        Ok(key) => key,
        Err(ScopeError::ContainsSeparator(c)) => return Ok(Answer::problem(Problem::invalid_key(&format!("{c:?} contains a separator")))),
        Err(e) => return Err(Snag::bad_request(e)),
    };
    if let Some(prev) = c.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let split = c.planner.split(&r.call_ref, r.cranes, r.gross_moves, note.as_deref()).await?;
    let answer = Answer::json(Status::OK, &split);
    c.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
