//! Animal encounters (penguin meet-and-greet, rhino keeper chat): booking
//! and cancellation. Replay slots are PHP-serialised tuples because the old
//! PHP booking site still reads the same tank during the migration.

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use lagoon::tank::Tank;
use serde::Deserialize;

use crate::extractors::Caller;

#[derive(Deserialize)]
pub struct EncounterRequest {
    encounter: String,
    slot_time: String,
    guests: u8,
}

pub struct EncounterDesk {
    pub replays: Tank,
    pub calendar: crate::encounters::Calendar,
}

fn client_key(visit: &Visit) -> Result<String, Fault> {
    visit
        .header("Idempotency-Key")
        .map(str::to_owned)
        .ok_or_else(|| Fault::bad_request("Idempotency-Key required"))
}

pub async fn book(
    visit: Visit,
    Shared(desk): Shared<EncounterDesk>,
    caller: Caller,
    Json(req): Json<EncounterRequest>,
) -> Result<Reply, Fault> {
    let key = client_key(&visit)?;
    let route = "encounters.book";
    let slot = serde_php::to_vec(&(&caller.org_id, route, &key)).map_err(Fault::internal)?;
    if let Some(prev) = desk.replays.get(&slot).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let spot = desk
        .calendar
        .book(&caller.org_id, &req.encounter, &req.slot_time, req.guests)
        .await?;
    let body = serde_json::to_vec(&spot).map_err(Fault::internal)?;
    desk.replays.put(&slot, &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

pub async fn cancel(visit: Visit, Shared(desk): Shared<EncounterDesk>, caller: Caller) -> Result<Reply, Fault> {
    let key = client_key(&visit)?;
    let booking = visit.param("booking").ok_or_else(|| Fault::not_found("booking"))?;
    let slot = serde_php::to_vec(&(&caller.org_id, &caller.user_id, "encounters.cancel", &key)).map_err(Fault::internal)?;
    if let Some(prev) = desk.replays.get(&slot).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let refund = desk.calendar.cancel(&caller.org_id, booking).await?;
    let body = serde_json::to_vec(&refund).map_err(Fault::internal)?;
    desk.replays.put(&slot, &body).await?;
    Ok(Reply::bytes(Status::OK, body))
}
