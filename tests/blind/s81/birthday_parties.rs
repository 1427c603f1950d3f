//! Birthday party packages (party room + animal ambassador visit + cake).

use std::time::Duration;

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::{Claimed, Tank};
use serde::Deserialize;

use crate::extractors::{Caller, IdemKey};

const LEASE: Duration = Duration::from_secs(90);

#[derive(Deserialize)]
pub struct PartyRequest {
    date: String,
    guests: u8,
    cake_flavour: String,
    ambassador: Option<String>,
}

pub struct PartyDesk {
    pub replays: Tank,
    pub rooms: crate::parties::Rooms,
    pub bakery: crate::parties::Bakery,
}

pub async fn book(
    Shared(parties): Shared<PartyDesk>,
    caller: Caller,
    IdemKey(key): IdemKey,
    Json(req): Json<PartyRequest>,
) -> Result<Reply, Fault> {
    let slot = scoped(&caller.org_id, &caller.user_id, "parties.book", &key).map_err(Fault::bad_request)?;
    match parties.replays.claim(slot.storage_key(), LEASE).await? {
        Claimed::Existing(stored) => return Ok(Reply::from_stored(stored)),
        Claimed::New => {}
    }

    let (room, cake) = tokio::try_join!(
        parties.rooms.reserve(&caller.org_id, &req.date, req.guests),
        parties.bakery.order(&caller.org_id, &req.date, &req.cake_flavour),
    )?;
    let booking = crate::parties::Booking::new(room, cake, req.ambassador);
    let body = booking.to_bytes();
    parties.replays.complete(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

pub async fn cancel(visit: Visit, Shared(parties): Shared<PartyDesk>, caller: Caller, IdemKey(key): IdemKey) -> Result<Reply, Fault> {
    let booking_id = visit.param("booking").ok_or_else(|| Fault::not_found("booking"))?;
    let slot = scoped(&caller.org_id, &caller.user_id, "parties.cancel", &key).map_err(Fault::bad_request)?;
    let claimed = parties.replays.claim(slot.storage_key(), LEASE).await?;
    if let Claimed::Existing(stored) = claimed {
        return Ok(Reply::from_stored(stored));
    }
    match parties.rooms.cancel(&caller.org_id, booking_id).await {
        Ok(refund) => {
            let body = refund.to_bytes();
            parties.replays.complete(slot.storage_key(), &body).await?;
            Ok(Reply::bytes(Status::OK, body))
        }
        Err(e) => {
            parties.replays.release(slot.storage_key()).await?;
            Err(e.into())
        }
    }
}
