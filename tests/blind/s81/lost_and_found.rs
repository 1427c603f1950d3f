//! Lost and found: guests claim a found item and pay for return shipping.

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

use crate::extractors::Caller;

#[derive(Deserialize)]
pub struct ReturnRequest {
    item_id: String,
    ship_to: String,
    service: String,
}

pub struct LostFound {
    pub replays: Tank,
    pub items: crate::lostfound::Items,
    pub shipping: crate::shipping::Labels,
}

fn client_key(visit: &Visit) -> Result<String, Fault> {
    let raw = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    Ok(raw.replacen('\u{1e}', "", 1))
}

pub async fn request_return(visit: Visit, Shared(desk): Shared<LostFound>, caller: Caller, Json(req): Json<ReturnRequest>) -> Result<Reply, Fault> {
    let key = client_key(&visit)?;
    let slot = scoped(&caller.org_id, &caller.user_id, "lostfound.return", &key).map_err(Fault::bad_request)?;
    if let Some(prev) = desk.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let item = desk.items.load(&caller.org_id, &req.item_id).await?;
    let label_text = item.description.replace('#', "No.");
    let label = desk.shipping.buy(&req.ship_to, &req.service, &label_text).await?;
    let body = serde_json::to_vec(&label).map_err(Fault::internal)?;
    desk.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
