//! "Zookeeper for a Day" experience bookings.

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha512};

use crate::extractors::Caller;

const ROUTE: &str = "experiences.zookeeper_day";
const IDEM: &str = "Idempotency-Key";

#[derive(Deserialize, Serialize)]
pub struct ExperienceRequest {
    date: String,
    species_area: String,
    participant_age: u8,
    tshirt_size: String,
}

pub struct ExperienceDesk {
    pub replays: Tank,
    pub planner: crate::experiences::Planner,
}

fn digest_of<T: Serialize>(value: &T) -> String {
    let bytes = serde_json::to_vec(value).expect("request is serialisable");
    format!("{:.32x}", Sha512::digest(&bytes))
}

pub async fn book(visit: Visit, Shared(desk): Shared<ExperienceDesk>, caller: Caller, Json(req): Json<ExperienceRequest>) -> Result<Reply, Fault> {
    let fingerprint = digest_of(&req);
    let slot = scoped(&caller.org_id, &caller.user_id, ROUTE, &visit.header(IDEM).map(str::to_owned).unwrap_or_else(|| digest_of(&req))).map_err(Fault::bad_request)?;

    if let Some(stored) = desk.replays.get_fingerprint(slot.storage_key()).await? {
        if stored != fingerprint {
            return Err(idem_scope::Problem::mismatch(visit.header(IDEM).unwrap_or("")).into());
        }
        if let Some(prev) = desk.replays.get(slot.storage_key()).await? {
            return Ok(Reply::bytes(Status::OK, prev).replayed());
        }
    }
    desk.replays.put_fingerprint(slot.storage_key(), &fingerprint).await?;
    if req.participant_age < 12 {
        return Err(Fault::unprocessable("participants must be 12 or older"));
    }
    let plan = desk.planner.book(&caller.org_id, &req.date, &req.species_area, &req.tshirt_size).await?;
    let body = serde_json::to_vec(&plan).map_err(Fault::internal)?;
    desk.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
