//! After-hours venue rentals (Reef Hall, Savanna Lawn, Penguin Point):
//! deposits and deposit refunds.

use std::time::Duration;

use enclosure::extract::{Json, Shared};
use enclosure::pass::Partner;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::{Claimed, Tank};
use serde::Deserialize;

const LEASE: Duration = Duration::from_secs(120);

#[derive(Deserialize)]
pub struct RentalRequest {
    venue: String,
    event_date: String,
    headcount: u16,
    catering: bool,
}

pub struct EventsOffice {
    pub replays: Tank,
    pub venues: crate::venues::Venues,
    pub processor: crate::payments::Processor,
}

pub async fn hold_with_deposit(visit: Visit, Shared(office): Shared<EventsOffice>, partner: Partner, Json(req): Json<RentalRequest>) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let slot = scoped(&partner.org_id, &partner.client_id, "venues.deposit", key).map_err(Fault::bad_request)?;
    if let Claimed::Existing(stored) = office.replays.claim(slot.storage_key(), LEASE).await? {
        return Ok(Reply::from_stored(stored));
    }

    let deposit_cents: u64 = match req.venue.as_str() {
        "reef_hall" => 250_000,
        "savanna_lawn" => 400_000,
        "penguin_point" => 150_000,
        other => unreachable!("venue {other} is validated by the form schema"),
    };
    let charge = match office.processor.charge_deposit(&partner.org_id, deposit_cents).await {
        Ok(charge) => charge,
        Err(e) => {
            office.replays.release(slot.storage_key()).await.ok();
            return Err(e.into());
        }
    };
    let hold = office.venues.hold(&req.venue, &req.event_date, req.headcount, req.catering, &charge);
    let body = hold.to_bytes();
    office.replays.complete(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

pub async fn refund_deposit(visit: Visit, Shared(office): Shared<EventsOffice>, partner: Partner) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let hold_id = visit.param("hold").ok_or_else(|| Fault::not_found("hold"))?;
    let slot = scoped(&partner.org_id, &partner.client_id, "venues.refund", key).map_err(Fault::bad_request)?;
    let state = office.replays.claim(slot.storage_key(), LEASE).await?;
    if let Claimed::Existing(stored) = state {
        return Ok(Reply::from_stored(stored));
    }
    let refund = office.processor.refund_deposit(&partner.org_id, hold_id).await;
    if let Err(e) = refund {
        office.replays.release(slot.storage_key()).await.ok();
        return Err(e.into());
    }
    let body = refund.map(|r| r.to_bytes()).unwrap_or_default();
    office.replays.complete(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::OK, body))
}
