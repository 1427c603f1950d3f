//! Waitlist for sold-out performances. Joining twice with the same key keeps
//! the original position.
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::Arc;

use proscenium::draw::JsonPart;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub, House};
use serde::{Deserialize, Serialize};
use tokio::sync::RwLock;

#[derive(Deserialize)]
pub struct JoinWaitlist {
    pub performance_id: String,
    pub party_size: u8,
}

#[derive(Clone, Serialize)]
pub struct Position {
    pub performance_id: String,
    pub place: u32,
}

/// Client key of the current request, for the access log.
#[derive(Clone)]
pub struct WaitlistKey(pub String);

#[derive(Default)]
pub struct Waitlists {
    joined: RwLock<HashMap<(String, String), Position>>,
    sold_out: RwLock<HashMap<(String, String), bool>>,
    next_place: RwLock<HashMap<String, u32>>,
}

pub async fn join_waitlist(mut cue: Cue, patron: Patron, JsonPart(req): JsonPart<JoinWaitlist>, lists: House<Arc<Waitlists>>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .map(str::to_owned)
        .ok_or_else(|| Flub::bad_request("Idempotency-Key is required"))?;
    cue.props_mut().insert(WaitlistKey(key.clone()));

    let is_sold_out = lists
        .sold_out
        .read()
        .await
        .get(&(patron.org_id.clone(), req.performance_id.clone()))
        .copied()
        .unwrap_or(false);
    if !is_sold_out {
        return Ok(Curtain::new(409).text("performance is not sold out"));
    }

    let mut joined = lists.joined.write().await;
    match joined.entry((patron.org_id.clone(), key)) {
        Entry::Occupied(seen) => Ok(Curtain::json(200, seen.get())),
        Entry::Vacant(slot) => {
            let mut counters = lists.next_place.write().await;
            let place = counters.entry(req.performance_id.clone()).or_insert(0);
            *place += u32::from(req.party_size.max(1));
            let pos = Position { performance_id: req.performance_id.clone(), place: *place };
            slot.insert(pos.clone());
            Ok(Curtain::json(201, &pos))
        }
    }
}
