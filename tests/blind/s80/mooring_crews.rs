//! Mooring gang orders (linesmen) for berthing, shifting and unberthing.

use std::time::Duration;

use ballast::hold::Hold;
use ballast::work::WorkBoard;
use hawser::extract::Shared;
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;
use sha2::{Digest, Sha256};

#[derive(Deserialize)]
pub struct GangOrder {
    pub call_ref: String,
    pub operation: String,
    pub berth: String,
    pub at: jiff::Timestamp,
    pub linesmen: u8,
}

pub struct MooringDesk {
    pub replies: Hold,
    pub board: WorkBoard,
    pub roster: crew_roster::Roster,
}

pub async fn order_gang(desk: Shared<MooringDesk>, agent: Agent, call: Call) -> Result<Answer, Snag> {
    let digest = |b: &[u8]| hex::encode(Sha256::digest(b));
    let raw = call.body().await?;
    let order: GangOrder = serde_json::from_slice(&raw).map_err(Snag::bad_request)?;
    let route = call.route_template();

    let slot = scoped(&agent.account_id, &agent.user_id, route, &digest(&raw)).map_err(Snag::bad_request)?;
    if let Some(prev) = desk.replies.get(slot.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }

    let job_no = desk.roster.open_job(&order.call_ref, &order.operation, &order.berth, order.at).await?;
    let work = desk.board.try_claim(&job_no, Duration::from_secs(600)).await?;
    let gang = desk.roster.assign(&job_no, order.linesmen).await?;
    desk.board.complete(work).await?;

    let answer = Answer::json(Status::CREATED, &gang);
    desk.replies.put(slot.storage_key(), &answer.to_bytes()).await?;
    desk.replies.put_fingerprint(slot.storage_key(), digest(&raw).as_bytes()).await?;
    Ok(answer)
}
