//! Ticket resellers (hotels, city passes) buy dated tickets in bulk.

use enclosure::extract::{Json, Shared};
use enclosure::pass::Vendor;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Principal {
    ApiKey(String),
    Guest,
}

impl Principal {
    fn as_str(&self) -> &str {
        match self {
            Principal::ApiKey(id) => id,
            Principal::Guest => "guest",
        }
    }
}

#[derive(Deserialize)]
pub struct BulkOrder {
    date: String,
    adult: u32,
    child: u32,
    voucher_prefix: Option<String>,
}

pub struct ResellerDesk {
    pub replays: Tank,
    pub allocations: crate::resellers::Allocations,
}

pub async fn bulk_order(visit: Visit, Shared(desk): Shared<ResellerDesk>, Json(order): Json<BulkOrder>) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let vendor = visit.pass::<Vendor>();
    let org_id = vendor.as_ref().map(|v| v.org_id.clone()).ok_or_else(|| Fault::unauthorized("reseller pass required"))?;
    let principal = vendor.as_ref().map(|v| Principal::ApiKey(v.api_key_id.clone())).unwrap_or(Principal::Guest);

    let slot = scoped(&org_id, principal.as_str(), "resellers.bulk_order", key).map_err(Fault::bad_request)?;
    if let Some(prev) = desk.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let prefix = order.voucher_prefix.as_deref().unwrap_or("TZA");
    let batch = desk.allocations.issue(&org_id, &order.date, order.adult, order.child, prefix).await?;
    let body = serde_json::to_vec(&batch).map_err(Fault::internal)?;
    desk.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
