//! Catering orders for events. Planners order from the events portal; the
//! kitchen display system (KDS) calls back when it reprints an order and
//! the reprint is recorded in the same tank. Client slots and KDS slots are
//! kept in disjoint keyspaces.

use enclosure::extract::{Json, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use enclosure::pass::SiteOrg;
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

use crate::extractors::Caller;

const KDS_PRINCIPAL: &str = "svc-kds";

#[derive(Deserialize)]
pub struct CateringOrder {
    event_id: String,
    menu: String,
    covers: u16,
}

pub struct Catering {
    pub replays: Tank,
    pub kitchen: crate::kitchen::Kitchen,
}

/// `POST /v1/catering/orders`
pub async fn order(visit: Visit, Shared(c): Shared<Catering>, caller: Caller, Json(req): Json<CateringOrder>) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let scoped_key = scoped(&caller.org_id, &caller.user_id, "catering.order", key).map_err(Fault::bad_request)?;
    let slot = format!("u:{}", scoped_key.storage_key());
    if let Some(prev) = c.replays.get(&slot).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let ticket = c.kitchen.order(&caller.org_id, &req.event_id, &req.menu, req.covers).await?;
    let body = serde_json::to_vec(&ticket).map_err(Fault::internal)?;
    c.replays.put(&slot, &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

/// `POST /hooks/kds/reprint`
pub async fn kds_reprint(visit: Visit, Shared(c): Shared<Catering>, site: SiteOrg) -> Result<Reply, Fault> {
    let message_id = visit.header("X-Message-Id").ok_or_else(|| Fault::bad_request("message id missing"))?;
    let kds_key = scoped(&site.org_id, KDS_PRINCIPAL, "catering.reprint", message_id).map_err(Fault::bad_request)?;
    let slot = format!("kds:{}", kds_key.storage_key());
    if c.replays.exists(&slot).await? {
        return Ok(Reply::empty(Status::OK));
    }
    let ticket_no = visit.query("ticket").ok_or_else(|| Fault::bad_request("ticket"))?;
    c.kitchen.mark_reprinted(ticket_no).await?;
    c.replays.put(&slot, b"reprinted").await?;
    Ok(Reply::empty(Status::OK))
}
