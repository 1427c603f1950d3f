//! Stroller and wagon rentals at the main gate: `POST /v1/rentals/strollers`.

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status};
use lagoon::tank::{Entry, Tank};
use serde::Deserialize;

use crate::extractors::{Caller, IdemKey};

#[derive(Deserialize)]
pub struct RentalRequest {
    kind: crate::fleet::Kind,
    gate: String,
    hours: Option<u8>,
}

pub struct StrollerDepot {
    pub replays: Tank,
    pub fleet: crate::fleet::Fleet,
}

pub async fn rent(
    Shared(depot): Shared<StrollerDepot>,
    caller: Caller,
    key: IdemKey,
    Json(req): Json<RentalRequest>,
) -> Result<Reply, Fault> {
    let IdemKey(key) = key;
    let key = key.trim();

    match depot.replays.entry(key).await? {
        Entry::Occupied(done) => Ok(Reply::bytes(Status::OK, done.value().to_vec()).replayed()),
        Entry::Vacant(slot) => {
            let hours = req.hours.unwrap_or(4);
            let unit = depot.fleet.checkout(&caller.org_id, req.kind, &req.gate, hours)?;
            tracing::info!(org = %caller.org_id, unit = %unit.tag, "stroller out");
            let body = serde_json::to_vec(&unit).map_err(Fault::internal)?;
            slot.insert(body.clone()).await?;
            Ok(Reply::bytes(Status::CREATED, body))
        }
    }
}
