//! Affiliate carriage: affiliate stations order carriage of network
//! programmes and cancel orders they no longer need.

use crosspoint::badge::Affiliate;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use serde::Deserialize;
use spool::patchbay::PatchBay;

#[derive(Deserialize)]
pub struct CancelRequest {
    pub order_id: String,
    pub reason: String,
}

/// Lets an affiliate's automation ask whether a carriage order it sent was
/// already taken.
pub async fn carriage_status(inb: Inbound, bay: &PatchBay) -> Result<Outbound, Glitch> {
    let aff = inb.badge::<Affiliate>();
    let tenant = aff.map(|a| a.tenant_id.as_str());
    let key = inb.header("Idempotency-Key");

    let prior = match tenant.zip(key) {
        Some((tenant_id, k)) => bay.get(tenant_id, k).await?,
        None => return Err(Glitch::unauthorized()),
    };
    match prior {
        Some(body) => Ok(Outbound::replay(body)),
        None => Ok(Outbound::status(Status::NOT_FOUND)),
    }
}

pub async fn carriage_cancel(inb: Inbound, bay: &PatchBay) -> Result<Outbound, Glitch> {
    let aff = inb.badge::<Affiliate>().ok_or(Glitch::unauthorized())?;
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?;
    let route = inb.route_template();

    let owner = (aff.tenant_id.as_str(), aff.client_id.as_str());
    let op = (route, k);
    if let Some(prior) = bay.get(&owner, &op).await? {
        return Ok(Outbound::replay(prior));
    }

    let req: CancelRequest = inb.json().await?;
    let cancelled = crate::carriage::cancel(&aff.tenant_id, &req.order_id, &req.reason).await?;
    bay.put(&owner, &op, &serde_json::to_vec(&cancelled).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::OK, &cancelled))
}
