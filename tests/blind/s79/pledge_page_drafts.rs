//! Pledge page drafts: producers draft the landing page of an upcoming
//! drive. Older console builds do not send an idempotency key.

use crosspoint::badge::Producer;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use idem_scope::scoped;
use serde::{Deserialize, Serialize};
use spool::cart::Cart;
use uuid::Uuid;

#[derive(Deserialize)]
pub struct DraftBody {
    pub drive_id: String,
    pub headline: String,
    pub blocks: Vec<serde_json::Value>,
}

#[derive(Serialize)]
pub struct Draft {
    pub draft_id: Uuid,
    pub drive_id: String,
    pub headline: String,
}

pub async fn create_draft(inb: Inbound, cart: &Cart, drafts: &Cart) -> Result<Outbound, Glitch> {
    let p = inb.badge::<Producer>().ok_or(Glitch::unauthorized())?.clone();
    let k = inb.header("Idempotency-Key").map(str::to_owned).unwrap_or_else(|| Uuid::new_v4().to_string());

    let key = scoped(&p.org_id, &p.user_id, "/v1/pledge-pages/drafts", &k).map_err(Glitch::scope)?;
    if let Some(prior) = cart.get(key.storage_key()).await? {
        return Ok(Outbound::replay(prior));
    }
    let body: DraftBody = inb.json().await?;
    let draft = Draft { draft_id: Uuid::new_v4(), drive_id: body.drive_id, headline: body.headline };
    drafts.put(&draft.draft_id.to_string(), &serde_json::to_vec(&body.blocks).unwrap_or_default()).await?;
    cart.put(key.storage_key(), &serde_json::to_vec(&draft).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &draft))
}
