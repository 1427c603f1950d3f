//! "Name the new otter pup" contest: one ballot per member per contest.

use std::collections::btree_map::{BTreeMap, Entry};

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use lagoon::tank::Tank;
use serde::Deserialize;
use tokio::sync::Mutex;

use crate::extractors::Caller;

#[derive(Deserialize)]
pub struct Ballot {
    contest_id: String,
    choice: String,
}

pub struct ContestBox {
    seen: Mutex<BTreeMap<(String, String), Vec<u8>>>,
    votes: Tank,
}

pub async fn vote(
    visit: Visit,
    Shared(contest): Shared<ContestBox>,
    caller: Caller,
    Json(ballot): Json<Ballot>,
) -> Result<Reply, Fault> {
    let key = visit
        .header("x-idempotency-key")
        .map(str::to_owned)
        .ok_or_else(|| Fault::bad_request("x-idempotency-key required"))?;

    let mut seen = contest.seen.lock().await;
    match seen.entry((caller.user_id.clone(), key)) {
        Entry::Occupied(prev) => Ok(Reply::bytes(Status::OK, prev.get().clone()).replayed()),
        Entry::Vacant(slot) => {
            let ballot_slot = (caller.org_id.clone(), caller.user_id.clone(), ballot.contest_id.clone());
            if contest.votes.exists(&ballot_slot).await? {
                return Err(Fault::conflict("you already voted in this contest"));
            }
            contest.votes.put(&ballot_slot, ballot.choice.as_bytes()).await?;
            let body = serde_json::to_vec(&serde_json::json!({ "counted": true })).map_err(Fault::internal)?;
            slot.insert(body.clone());
            Ok(Reply::bytes(Status::CREATED, body))
        }
    }
}
