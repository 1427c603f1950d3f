//! Summer zoo camp registration: `POST /v1/camps/{session}/registrations`.

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use lagoon::tank::Tank;
use serde::Deserialize;

use crate::extractors::Caller;

const ROUTE: &str = "camps.register";

#[derive(Deserialize)]
pub struct Registration {
    camper_name: String,
    grade: u8,
    session_kind: Option<String>,
    medical_notes: Option<String>,
}

pub struct CampOffice {
    pub replays: Tank,
    pub rosters: Tank,
    pub seats: crate::camps::SeatBook,
}

pub async fn register(
    visit: Visit,
    Shared(office): Shared<CampOffice>,
    caller: Caller,
    Json(reg): Json<Registration>,
) -> Result<Reply, Fault> {
    let session_id = visit.param("session").ok_or_else(|| Fault::not_found("session"))?;
    let key = visit
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::bad_request("missing Idempotency-Key"))?;

    let mut slot = Vec::with_capacity(128);
    for part in [caller.org_id.as_bytes(), caller.user_id.as_bytes(), ROUTE.as_bytes(), key.as_bytes()] {
        slot.extend_from_slice(part);
        slot.push(0x1f);
    }
    if let Some(previous) = office.replays.get(&slot).await? {
        return Ok(Reply::bytes(Status::OK, previous).replayed());
    }

    let kind = reg.session_kind.as_deref().unwrap_or("general");
    let seat = office.seats.take(&caller.org_id, session_id, kind, reg.grade).await?;
    office
        .rosters
        .put(&format!("camp:{}:{}:roster", caller.org_id, session_id), seat.roster_line(&reg.camper_name).as_bytes())
        .await?;

    let body = serde_json::to_vec(&seat).map_err(Fault::internal)?;
    office.replays.put(&slot, &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
