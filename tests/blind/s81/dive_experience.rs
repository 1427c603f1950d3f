//! Shark-tank dive experience at the aquarium: `POST /v1/dives`.
//! Replay slots are Smile-encoded structs: the dive operator's Java
//! scheduling system reads the same tank.

use enclosure::extract::{RawBody, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::Fingerprint;
use lagoon::tank::{Claimed, Tank};
use serde::{Deserialize, Serialize};

use crate::extractors::Caller;

const IDEMPOTENCY_KEY: &str = "Idempotency-Key";

#[derive(Serialize)]
struct DiveSlot<'a> {
    org_id: &'a str,
    user_id: &'a str,
    key: &'a str,
}

#[derive(Deserialize)]
struct DiveRequest {
    dive_date: String,
    certified: bool,
    waiver_id: String,
}

#[derive(Clone)]
pub struct DiveDesk {
    pub replays: Tank,
    pub roster: crate::dives::Roster,
}

pub async fn reserve(
    visit: Visit,
    Shared(dive): Shared<DiveDesk>,
    caller: Caller,
    RawBody(raw): RawBody,
) -> Result<Reply, Fault> {
    let key = visit
        .header(IDEMPOTENCY_KEY)
        .ok_or_else(|| Fault::bad_request("Idempotency-Key required"))?;
    let slot = serde_smile::to_vec(&DiveSlot { org_id: &caller.org_id, user_id: &caller.user_id, key }).map_err(Fault::internal)?;
    let fingerprint = Fingerprint::of("dives.reserve", &raw);

    let guard = match dive.replays.claim(&slot, &fingerprint).await? {
        Claimed::New => scopeguard::guard((dive.replays.clone(), slot.clone()), |(tank, slot)| {
            tank.release_blocking(&slot);
        }),
        Claimed::Existing(stored) => return Ok(Reply::from_stored(stored)),
    };

    let req: DiveRequest = serde_json::from_slice(&raw).map_err(Fault::bad_request)?;
    if !req.certified {
        return Err(Fault::unprocessable("open-water certification required"));
    }
    let spot = dive.roster.add(&caller.org_id, &caller.user_id, &req.dive_date, &req.waiver_id).await?;
    let body = serde_json::to_vec(&spot).map_err(Fault::internal)?;
    dive.replays.complete(&slot, &body).await?;
    scopeguard::ScopeGuard::into_inner(guard);
    Ok(Reply::bytes(Status::CREATED, body))
}
