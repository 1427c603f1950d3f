//! Ad breaks: traffic staff insert a break by hand from the web console,
//! and the playout system reports SCTE-35 splice events for breaks it
//! inserted on its own. Both record the break in the break cart.

use crosspoint::badge::Staff;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;

const ROUTE: &str = "/v1/breaks";
const PLAYOUT: &str = "playout";

#[derive(Deserialize)]
pub struct BreakRequest {
    pub channel: String,
    pub at: String,
    pub duration_s: u32,
}

/// A splice_insert() as decoded from the playout system's SCTE-35 feed.
pub struct SpliceInsert {
    pub splice_event_id: u32,
    pub out_of_network: bool,
    pub pts: u64,
    pub break_duration: Option<u64>,
}

pub struct BreakDesk {
    pub cart: Cart,
}

impl BreakDesk {
    pub async fn insert_break(&self, inb: Inbound) -> Result<Outbound, Glitch> {
        let staff = inb.badge::<Staff>().ok_or(Glitch::unauthorized())?.clone();
        let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?.to_owned();
        let key = scoped(&staff.tenant_id, &staff.user_id, ROUTE, &k).map_err(Glitch::scope)?;
        if let Some(prior) = self.cart.get(key.storage_key()).await? {
            return Ok(Outbound::replay(prior));
        }
        let req: BreakRequest = inb.json().await?;
        let b = crate::traffic_log::insert(&staff.tenant_id, &req.channel, &req.at, req.duration_s).await?;
        self.cart.put(key.storage_key(), &serde_json::to_vec(&b).unwrap_or_default()).await?;
        Ok(Outbound::json(Status::CREATED, &b))
    }

    pub async fn on_splice(&self, tenant_id: &str, channel: &str, cue: SpliceInsert) -> Result<(), Glitch> {
        if !cue.out_of_network {
            return Ok(());
        }
        let key = scoped(tenant_id, PLAYOUT, ROUTE, &cue.splice_event_id.to_string()).map_err(Glitch::scope)?;
        if self.cart.exists(key.storage_key()).await? {
            return Ok(());
        }
        let b = crate::traffic_log::record_automatic(tenant_id, channel, cue.pts, cue.break_duration).await?;
        self.cart.put(key.storage_key(), &serde_json::to_vec(&b).unwrap_or_default()).await?;
        Ok(())
    }
}
