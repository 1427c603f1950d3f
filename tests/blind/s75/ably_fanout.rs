//! Box-office tablets publish seat commands on an Ably channel per venue
//! group; this poller applies them. The HTTP route below applies the same
//! commands for tablets that are online through the API instead.
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::Arc;

use ably::Rest;
use proscenium::pass::Staff;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;
use tokio::sync::Mutex;

type Applied = HashMap<(String, String, String, String), serde_json::Value>;

#[derive(Deserialize)]
pub struct SeatCommand {
    pub action: String,
    pub performance_id: String,
    pub seats: Vec<String>,
}

pub struct SeatBus {
    pub ably: Rest,
    pub applied: Arc<Mutex<Applied>>,
    pub seating: crate::seating::Planner,
}

pub async fn apply_via_api(cue: Cue, staff: Staff, bus: House<SeatBus>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::bad_request("Idempotency-Key is required"))?;
    let cmd: SeatCommand = serde_json::from_slice(cue.body()).map_err(Flub::bad_request)?;
    let route = format!("seat_{}", cmd.action);
    let mut applied = bus.applied.lock().await;
    if let Some(previous) = applied.get(&(staff.org_id.clone(), staff.user_id.clone(), route.clone(), key.to_owned())) {
        return Ok(Curtain::json(200, previous));
    }
    let result = bus.seating.apply(&staff.org_id, &cmd.action, &cmd.performance_id, &cmd.seats).await?;
    applied.insert((staff.org_id.clone(), staff.user_id.clone(), route, key.to_owned()), result.clone());
    Ok(Curtain::json(200, &result))
}

pub async fn poll_channel(bus: &SeatBus, org_id: &str) -> Result<usize, ably::Error> {
    let channel = bus.ably.channels().get(format!("box-office:{org_id}"));
    let page = channel.history().send().await?;
    let mut applied_now = 0;
    for msg in page.items().await? {
        let Some(message_id) = msg.id.clone() else { continue };
        let Some(client_id) = msg.client_id.clone() else { continue };
        let Ok(cmd) = serde_json::from_value::<SeatCommand>(msg.data.as_json()) else { continue };
        let route = format!("seat_{}", cmd.action);
        let mut applied = bus.applied.lock().await;
        let slot = match applied.entry((org_id.to_owned(), client_id, route, message_id.clone())) {
            Entry::Occupied(_) => continue,
            Entry::Vacant(slot) => slot,
        };
        let Ok(result) = bus.seating.apply(org_id, &cmd.action, &cmd.performance_id, &cmd.seats).await else { continue };
        tracing::debug!(ably_message = %message_id, "seat command applied");
        slot.insert(result);
        applied_now += 1;
    }
    Ok(applied_now)
}
