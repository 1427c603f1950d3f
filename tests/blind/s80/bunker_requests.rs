//! Bunkering requests: agents request fuel delivery by barge alongside a
//! vessel at berth. Older agency systems cannot set request headers.

use ballast::hold::Hold;
use hawser::extract::Shared;
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;
use sha2::{Digest, Sha256};

#[derive(Deserialize)]
pub struct BunkerRequest {
    pub call_ref: String,
    pub grade: String,
    pub tonnes: f64,
    pub window_from: jiff::Timestamp,
    pub supplier: String,
}

pub struct BunkerDesk {
    pub replies: Hold,
    pub barges: barge_sched::Scheduler,
}

pub async fn request_bunkers(desk: Shared<BunkerDesk>, a: Agent, call: Call) -> Result<Answer, Snag> {
    let route = call.route_template().to_owned();
    let raw = call.body().await?;
    let req: BunkerRequest = serde_json::from_slice(&raw).map_err(Snag::bad_request)?;
    let body_sha = hex::encode(Sha256::digest(&raw));

    let key = match call.header("Idempotency-Key") {
        Some(k) => scoped(&a.account_id, &a.user_id, &route, k).map_err(Snag::bad_request)?,
        None => scoped(&a.account_id, &a.user_id, &route, &body_sha).map_err(Snag::bad_request)?,
    };

    if let Some(prev) = desk.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let booking = desk.barges.book(&req.call_ref, &req.grade, req.tonnes, req.window_from, &req.supplier).await?;
    let answer = Answer::json(Status::CREATED, &booking);
    desk.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    desk.replies.put_fingerprint(key.storage_key(), body_sha.as_bytes()).await?;
    Ok(answer)
}
