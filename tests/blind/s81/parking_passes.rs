//! Member parking passes for the north lot: `POST /v1/parking/passes`.

use enclosure::extract::{Json, Shared};
use enclosure::pass::Member;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::pair::{PairEntry, PairTank};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct PassRequest {
    plate: String,
    lot: String,
    valid_on: String,
}

pub struct ParkingOffice {
    pub pairs: PairTank,
    pub lots: crate::lots::Lots,
}

pub async fn issue(
    visit: Visit,
    Shared(office): Shared<ParkingOffice>,
    member: Member,
    Json(req): Json<PassRequest>,
) -> Result<Reply, Fault> {
    let key = match visit.header_bytes("Idempotency-Key").map(std::str::from_utf8) {
        Some(Ok(k)) => k.to_owned(),
        Some(Err(_)) => return Err(Fault::bad_request("key must be ASCII")),
        None => return Err(Fault::bad_request("Idempotency-Key required")),
    };

    match office.pairs.entry(&member.org_id, &key).await? {
        PairEntry::Occupied(prev) => Ok(Reply::bytes(Status::OK, prev.into_value()).replayed()),
        PairEntry::Vacant(v) => {
            let pass = office.lots.issue(&member.org_id, &req.lot, &req.plate, &req.valid_on).await?;
            let body = serde_json::to_vec(&pass).map_err(Fault::internal)?;
            v.insert(body.clone()).await?;
            Ok(Reply::bytes(Status::CREATED, body))
        }
    }
}

pub async fn receipt(visit: Visit, Shared(office): Shared<ParkingOffice>, member: Member) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let scoped_key = scoped(&member.org_id, &member.user_id, "parking.issue", key).map_err(Fault::bad_request)?;
    match office.pairs.get(scoped_key.storage_key(), "receipt").await? {
        Some(body) => Ok(Reply::bytes(Status::OK, body)),
        None => Err(Fault::not_found("no pass for this key")),
    }
}
