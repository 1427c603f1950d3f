//! Conservation lecture series seat reservations and refunds.

use enclosure::extract::Shared;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;

use crate::extractors::Caller;

const IDEM_HEADER: &str = "Idempotency-Key";

pub trait Slotted {
    fn slot(&self) -> String;
}

struct SeatRequest<'a> {
    org_id: &'a str,
    user_id: &'a str,
    key: &'a str,
    seats: u8,
}

impl Slotted for SeatRequest<'_> {
    fn slot(&self) -> String {
        [self.org_id, self.user_id, "lectures.reserve", self.key].concat()
    }
}

pub struct LectureHall {
    pub replays: Tank,
    pub seatmaps: Tank,
    pub box_office: crate::box_office::BoxOffice,
}

pub async fn reserve(visit: Visit, Shared(hall): Shared<LectureHall>, caller: Caller) -> Result<Reply, Fault> {
    let lecture_id = visit.param("lecture").ok_or_else(|| Fault::not_found("lecture"))?;
    let req = SeatRequest {
        org_id: &caller.org_id,
        user_id: &caller.user_id,
        key: visit.header(IDEM_HEADER).ok_or_else(|| Fault::bad_request("key required"))?,
        seats: visit.query("seats").and_then(|s| s.parse().ok()).unwrap_or(1),
    };
    if let Some(done) = hall.replays.get(&req.slot()).await? {
        return Ok(Reply::bytes(Status::OK, done).replayed());
    }

    let seatmap_key = [caller.org_id.as_str(), "/", lecture_id, "/seatmap"].concat();
    let seatmap = hall.seatmaps.get(&seatmap_key).await?.ok_or_else(|| Fault::not_found("seat map"))?;
    let booking = hall.box_office.reserve(&seatmap, req.seats).await?;
    let body = serde_json::to_vec(&booking).map_err(Fault::internal)?;
    hall.replays.put(&req.slot(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

pub async fn refund(visit: Visit, Shared(hall): Shared<LectureHall>, caller: Caller) -> Result<Reply, Fault> {
    let key = visit.header(IDEM_HEADER).ok_or_else(|| Fault::bad_request("key required"))?;
    let booking_id = visit.param("booking").ok_or_else(|| Fault::not_found("booking"))?;
    let scoped_key = scoped(&caller.org_id, &caller.user_id, "lectures.refund", key).map_err(Fault::bad_request)?;
    if let Some(done) = hall.replays.get(scoped_key.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, done).replayed());
    }
    let refund = hall.box_office.refund(&caller.org_id, booking_id).await?;
    let body = serde_json::to_vec(&refund).map_err(Fault::internal)?;
    hall.replays.put(scoped_key.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::OK, body))
}
