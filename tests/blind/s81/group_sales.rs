//! Group sales partner API for tour operators and cruise-shore excursions.

use enclosure::extract::{Json, Shared};
use enclosure::pass::Partner;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct BlockRequest {
    date: String,
    size: u16,
    lunch_vouchers: bool,
}

#[derive(Deserialize)]
pub struct AmendRequest {
    size: u16,
}

pub struct GroupDesk {
    pub replays: Tank,
    pub inventory: crate::inventory::GroupInventory,
}

pub async fn block(visit: Visit, Shared(desk): Shared<GroupDesk>, partner: Partner, Json(req): Json<BlockRequest>) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let slot = scoped(&partner.org_id, &partner.client_id, "groups.block", key).map_err(Fault::bad_request)?;

    if !desk.replays.set_nx(slot.storage_key(), b"in_progress").await? {
        return Err(Fault::conflict("a request with this key is in progress"));
    }
    let Some(block) = desk.inventory.block(&partner.org_id, &req.date, req.size, req.lunch_vouchers).await? else {
        return Err(Fault::conflict("date sold out for groups"));
    };
    let body = block.to_bytes();
    desk.replays.set(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

pub async fn amend(visit: Visit, Shared(desk): Shared<GroupDesk>, partner: Partner, Json(req): Json<AmendRequest>) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let block_id = visit.param("block").ok_or_else(|| Fault::not_found("block"))?;
    let slot = scoped(&partner.org_id, &partner.client_id, "groups.amend", key).map_err(Fault::bad_request)?;

    let fresh = desk.replays.set_nx(slot.storage_key(), b"in_progress").await?;
    if !fresh {
        return Err(Fault::conflict("a request with this key is in progress"));
    }
    match desk.inventory.amend(&partner.org_id, block_id, req.size).await {
        Ok(block) => {
            let body = block.to_bytes();
            desk.replays.set(slot.storage_key(), &body).await?;
            Ok(Reply::bytes(Status::OK, body))
        }
        Err(e) => {
            desk.replays.del(slot.storage_key()).await?;
            Err(e.into())
        }
    }
}
