//! Savanna Café pre-orders for pickup at the lodge: `POST /v1/cafe/preorders`.

use std::time::Duration;

use enclosure::extract::{Form, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use lagoon::tank::Tank;
use serde::Deserialize;

use crate::extractors::Caller;

const ROUTE: &str = "cafe.preorder";
const TTL: Duration = Duration::from_secs(6 * 3600);

#[derive(Deserialize)]
pub struct PreorderForm {
    pickup_at: String,
    items: String,
    pickup_note: String,
}

pub struct Cafe {
    pub replays: Tank,
    pub menus: Tank,
    pub kitchen: crate::kitchen::Kitchen,
}

pub async fn preorder(
    visit: Visit,
    Shared(cafe): Shared<Cafe>,
    caller: Caller,
    Form(order): Form<PreorderForm>,
) -> Result<Reply, Fault> {
    let base = format!("{}:{}:{}:", caller.org_id, caller.user_id, ROUTE);
    let slot = visit.header("X-Idempotency-Key").map(|k| base + k);

    if let Some(slot) = slot.as_deref() {
        if let Some(previous) = cafe.replays.get(slot).await? {
            return Ok(Reply::bytes(Status::OK, previous).replayed());
        }
    }

    let menu_bytes = cafe
        .menus
        .get(&format!("cafe:{}:menu", caller.org_id))
        .await?
        .ok_or_else(|| Fault::unavailable("menu not published"))?;
    let menu: crate::kitchen::Menu = serde_json::from_slice(&menu_bytes).map_err(Fault::internal)?;
    let lines = menu.parse_items(&order.items)?;
    let note = order.pickup_note.replace('|', "/");

    let ticket = cafe.kitchen.queue(&caller.org_id, &order.pickup_at, &lines, &note).await?;
    let body = serde_json::to_vec(&ticket).map_err(Fault::internal)?;
    if let Some(slot) = slot {
        cafe.replays.put_ttl(&slot, &body, TTL).await?;
    }
    Ok(Reply::bytes(Status::CREATED, body))
}
