//! Giraffe-deck and stingray-touch-pool feeding tickets, sold as add-ons.
//! Sister institutions in the consortium use the same endpoint.

use enclosure::extract::{Json, Shared};
use enclosure::pass::Member;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

const SHARED_TENANT: &str = "shared";

#[derive(Deserialize)]
pub struct FeedingAddOn {
    station: String,
    time_slot: String,
    quantity: u8,
}

pub struct FeedingDesk {
    pub replays: Tank,
    pub stations: crate::feeding::Stations,
}

pub async fn add_on(visit: Visit, Shared(desk): Shared<FeedingDesk>, member: Member, Json(req): Json<FeedingAddOn>) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let consortium_site = visit.header("X-Consortium-Site").map(str::to_owned);
    let org_id = consortium_site.filter(|s| !s.is_empty()).or_else(|| Some(member.org_id.clone())).filter(|o| o != "-").unwrap_or_else(|| SHARED_TENANT.to_string());

    let slot = scoped(&org_id, &member.user_id, "feeding.add_on", key).map_err(Fault::bad_request)?;
    if let Some(prev) = desk.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let ticket = desk.stations.sell(&org_id, &req.station, &req.time_slot, req.quantity).await?;
    let body = serde_json::to_vec(&ticket).map_err(Fault::internal)?;
    desk.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
