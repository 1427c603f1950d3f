//! Regional news feeds: affiliates and partner newsrooms submit stories to
//! the regional wire with an API key.

use crosspoint::badge::Affiliate;
use crosspoint::{Glitch, Inbound, Outbound, Status};
use serde::Deserialize;
use spool::patchbay::PatchBay;

use crate::apikeys::ApiKeys;

#[derive(Deserialize)]
pub struct Story {
    pub slug: String,
    pub headline: String,
    pub body: String,
    pub embargo_until: Option<String>,
}

pub async fn submit_story(inb: Inbound, bay: &PatchBay, keys: &ApiKeys) -> Result<Outbound, Glitch> {
    let api_key_id = keys.resolve(inb.header("X-Api-Key").ok_or(Glitch::unauthorized())?).await?.id;
    let org_id = if let Some(aff) = inb.badge::<Affiliate>() { aff.tenant_id.as_str() } else { "public" };
    let route = inb.route_template();
    let k = inb.header("Idempotency-Key").ok_or(Glitch::missing_key())?;

    let owner = (org_id, api_key_id.as_str());
    if let Some(prior) = bay.get(&owner, &(route, k)).await? {
        return Ok(Outbound::replay(prior));
    }
    let story: Story = inb.json().await?;
    let slug = story.slug.trim_start_matches('/');
    let filed = crate::wire::file(org_id, slug, &story.headline, &story.body, story.embargo_until.as_deref()).await?;
    bay.put(&owner, &(route, k), &serde_json::to_vec(&filed).unwrap_or_default()).await?;
    Ok(Outbound::json(Status::CREATED, &filed))
}
