//! Shore power (cold ironing) sessions: a vessel at berth requests a
//! connection; the electrical desk schedules the connection crew.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Agent;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize, Hash)]
pub struct ShorePowerRequest {
    pub call_ref: String,
    pub berth: String,
    pub kva: u32,
    pub voltage: u16,
    pub hz: u8,
    pub connect_at: String,
}

pub struct PowerDesk {
    pub shards: Vec<Hold>,
    pub crews: crew_roster::Roster,
}

fn shard_of(account_id: &str, n: usize) -> usize {
    let mut h = DefaultHasher::new();
    account_id.hash(&mut h);
    (h.finish() % n as u64) as usize
}

fn request_hash(req: &ShorePowerRequest) -> String {
    let mut h = DefaultHasher::new();
    req.hash(&mut h);
    format!("{:016x}", h.finish())
}

pub async fn request_connection(
    desk: Shared<PowerDesk>,
    agent: Agent,
    call: Call,
    Json(req): Json<ShorePowerRequest>,
) -> Result<Answer, Snag> {
    let shard = shard_of(&agent.account_id, desk.shards.len());
    let replies = &desk.shards[shard];
    let route = call.route_template();

    let slot = scoped(&agent.account_id, &agent.user_id, route, &request_hash(&req)).map_err(Snag::bad_request)?;
    if let Some(prev) = replies.get(slot.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let job = desk.crews.schedule_connection(&req.berth, req.kva, req.voltage, &req.connect_at).await?;
    let answer = Answer::json(Status::ACCEPTED, &job);
    replies.put(slot.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
