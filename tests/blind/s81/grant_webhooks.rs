//! Crowdfunding pledges for the new sea-turtle rehab centre. Donors pledge
//! on our site; the crowdfunding platform also posts pledges made on its own
//! page to our webhook. Both land in the pledge replay tank.

use enclosure::extract::{Json, RawBody, Shared};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

use crate::extractors::{Caller, IdemKey};

#[derive(Deserialize)]
pub struct PledgeRequest {
    amount_cents: u64,
    reward_tier: Option<String>,
}

#[derive(Deserialize)]
struct PlatformEvent {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    data: PlatformPledge,
}

#[derive(Deserialize)]
struct PlatformPledge {
    org_id: String,
    user_id: String,
    amount_cents: u64,
}

pub struct Pledges {
    pub replays: Tank,
    pub ledger: crate::pledges::Ledger,
}

/// `POST /v1/pledges`
pub async fn pledge(Shared(p): Shared<Pledges>, caller: Caller, IdemKey(key): IdemKey, Json(req): Json<PledgeRequest>) -> Result<Reply, Fault> {
    let slot = scoped(&caller.org_id, &caller.user_id, "pledges.create", &key).map_err(Fault::bad_request)?;
    if let Some(prev) = p.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let pledge = p.ledger.record(&caller.org_id, &caller.user_id, req.amount_cents, req.reward_tier.as_deref()).await?;
    let body = serde_json::to_vec(&pledge).map_err(Fault::internal)?;
    p.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

/// `POST /hooks/crowdfunding`
pub async fn platform_hook(visit: Visit, Shared(p): Shared<Pledges>, RawBody(raw): RawBody) -> Result<Reply, Fault> {
    crate::hooks::verify(&visit, &raw)?;
    let event: PlatformEvent = serde_json::from_slice(&raw).map_err(Fault::bad_request)?;
    if event.kind != "pledge.created" {
        return Ok(Reply::empty(Status::NO_CONTENT));
    }
    let pledge = event.data;
    let slot = scoped(&pledge.org_id, &pledge.user_id, "pledges.create", &event.id).map_err(Fault::bad_request)?;
    if p.replays.exists(slot.storage_key()).await? {
        return Ok(Reply::empty(Status::OK));
    }
    let recorded = p.ledger.record(&pledge.org_id, &pledge.user_id, pledge.amount_cents, None).await?;
    p.replays.put(slot.storage_key(), event.id.as_bytes()).await?;
    Ok(Reply::json(Status::OK, &recorded))
}
