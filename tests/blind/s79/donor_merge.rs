//! Donor merge: development staff at the network office merge duplicate
//! donor records for a member station they support.

use crosspoint::badge::Staff;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::Deserialize;
use spool::cart::Cart;

#[derive(Deserialize)]
pub struct MergeRequest {
    pub keep_donor_id: String,
    pub merge_donor_ids: Vec<String>,
}

pub async fn merge_donors(inb: Inbound, cart: &Cart) -> Result<Outbound, Glitch> {
    let staff = inb.badge::<Staff>().ok_or(Glitch::unauthorized())?.clone();
    let org_id = inb
        .header("X-Station-Org")
        .filter(|o| staff.stations.iter().any(|s| s == o))
        .map(|o| o.replace(':', ""))
        .ok_or(Glitch::forbidden())?;
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?;

    let key = scoped(&org_id, &staff.user_id, "/v1/donors/merge", k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let req: MergeRequest = inb.json().await?;
    let merged = crate::donors::merge(&org_id, &req.keep_donor_id, &req.merge_donor_ids).await?;
    cart.put(key.storage_key(), &serde_json::to_vec(&merged).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::OK, &merged))
}
