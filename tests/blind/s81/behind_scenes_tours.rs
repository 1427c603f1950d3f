//! Behind-the-scenes tours (hospital, commissary, reptile house) bought by
//! staff for VIP guests through the SSO-protected staff portal.

use enclosure::extract::{Json, Shared};
use enclosure::pass::SsoClaims;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct TourBooking {
    tour: String,
    date: String,
    guests: Vec<String>,
}

pub struct TourDesk {
    pub replays: Tank,
    pub tours: crate::tours::Tours,
}

pub async fn book(visit: Visit, Shared(desk): Shared<TourDesk>, claims: SsoClaims, Json(req): Json<TourBooking>) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let org_id: String = claims.org.clone().unwrap_or_else(Default::default);
    let sub = claims.sub.clone();

    let slot = scoped(&org_id, &sub, "tours.behind_scenes.book", key).map_err(Fault::bad_request)?;
    if let Some(prev) = desk.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let display = claims.name.clone().unwrap_or_else(|| "staff member".to_owned());
    let booking = desk.tours.book(&org_id, &req.tour, &req.date, &req.guests, &display).await?;
    let body = serde_json::to_vec(&booking).map_err(Fault::internal)?;
    desk.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
