//! Docent-led walking tours: guests book a spot with a named docent.

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

use crate::extractors::Caller;

#[derive(Deserialize)]
pub struct TourSpot {
    docent: String,
    topic: String,
    starts_at: String,
}

pub struct DocentDesk {
    pub replays: Tank,
    pub schedule: crate::docents::Schedule,
}

pub async fn book_spot(visit: Visit, Shared(desk): Shared<DocentDesk>, caller: Caller, Json(spot): Json<TourSpot>) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let clean = |s: &str| s.replace('\0', "");
    let [org_id, user_id, key] = [caller.org_id.as_str(), caller.user_id.as_str(), key].map(|s| clean(s));

    let slot = scoped(&org_id, &user_id, "docents.book", &key).map_err(Fault::bad_request)?;
    if let Some(prev) = desk.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let topic_slug: String = spot.topic.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    let booking = desk.schedule.book(&org_id, &spot.docent, &topic_slug, &spot.starts_at).await?;
    let body = serde_json::to_vec(&booking).map_err(Fault::internal)?;
    desk.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
