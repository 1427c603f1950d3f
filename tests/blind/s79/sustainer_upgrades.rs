//! Sustainer upgrades: a monthly donor raises the monthly amount.

use std::panic::UnwindSafe;

use crosspoint::badge::Member;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::{scoped, ScopedKey};
use serde::Deserialize;
use spool::cart::{Cart, SyncCart};

use crate::billing::Billing;

const ROUTE: &str = "/v1/sustainers/upgrade";
const IN_PROGRESS: &[u8] = b"in_progress";

#[derive(Deserialize)]
pub struct UpgradeRequest {
    pub plan_code: String,
    pub monthly_cents: i64,
}

pub async fn upgrade(inb: Inbound, cart: &Cart, billing: &Billing) -> Result<Outbound, Glitch> {
    let m = inb.badge::<Member>().ok_or(Glitch::unauthorized())?.clone();
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?.to_owned();
    let req: UpgradeRequest = inb.json().await?;
    let key = scoped(&m.tenant_id, &m.user_id, ROUTE, &k).map_err(Glitch::scope)?;

    cart.set_nx(key.storage_key(), IN_PROGRESS).await?;
    let Some(plan) = billing.cached_plan(&req.plan_code) else {
        return Err(Glitch::not_found("plan"));
    };
    let sub = match billing.upgrade(&m.tenant_id, &m.user_id, plan, req.monthly_cents).await {
        Ok(sub) => sub,
        Err(e) => {
            cart.del(key.storage_key()).await?;
            return Err(e.into());
        }
    };
    cart.put(key.storage_key(), &serde_json::to_vec(&sub).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::OK, &sub))
}

/// Lobby kiosk path: the kiosk runs the upgrade on its own thread.
pub fn upgrade_at_kiosk(cart: &SyncCart, key: &ScopedKey, run: impl FnOnce() -> Vec<u8> + UnwindSafe) -> Vec<u8> {
    cart.claim(key.storage_key());
    match std::panic::catch_unwind(run) {
        Ok(resp) => {
            cart.complete(key.storage_key(), &resp);
            resp
        }
        Err(panic) => {
            cart.release(key.storage_key());
            std::panic::resume_unwind(panic)
        }
    }
}
