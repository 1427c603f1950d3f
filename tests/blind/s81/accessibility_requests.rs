//! Mobility scooter (ECV) and wheelchair reservations, sensory bags and
//! quiet-room bookings. The accessibility desk shares one API across the
//! zoo and the aquarium; the site is resolved from the request host.

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

use crate::extractors::IdemKey;

#[derive(Deserialize)]
pub struct MobilityRequest {
    device: String,
    date: String,
    pickup_gate: Option<String>,
}

pub struct AccessDesk {
    pub replays: Tank,
    pub devices: crate::access::DevicePool,
    pub sites: crate::sites::SiteMap,
}

pub async fn reserve(visit: Visit, Shared(desk): Shared<AccessDesk>, IdemKey(key): IdemKey, Json(req): Json<MobilityRequest>) -> Result<Reply, Fault> {
    let org_id = desk.sites.org_for_host(visit.host()).ok().flatten().unwrap_or("*");
    let user_id = visit
        .pass::<enclosure::pass::Member>()
        .map(|m| m.user_id)
        .ok_or_else(|| Fault::unauthorized("sign in to reserve a device"))?;

    let slot = scoped(org_id, &user_id, "access.mobility.reserve", &key).map_err(Fault::bad_request)?;
    if let Some(prev) = desk.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let gate = req.pickup_gate.as_deref().unwrap_or("main");
    let unit = desk.devices.reserve_for(org_id, &req.device, &req.date, gate).await?;
    let body = serde_json::to_vec(&unit).map_err(Fault::internal)?;
    desk.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
