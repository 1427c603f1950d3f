//! Penguin-cam and jelly-cam premium livestream subscriptions.

use enclosure::extract::{Json, Shared};
use enclosure::pass::{Member, SiteOrg};
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Subscribe {
    cams: Vec<String>,
    plan: String,
}

pub struct CamDesk {
    pub replays: Tank,
    pub streams: crate::streams::Streams,
    pub analytics: crate::analytics::Events,
}

fn viewer_of(visit: &Visit) -> String {
    visit.pass::<Member>().map(|m| m.user_id).unwrap_or_else(|| "unknown".into())
}

pub async fn subscribe(visit: Visit, Shared(desk): Shared<CamDesk>, site: SiteOrg, Json(req): Json<Subscribe>) -> Result<Reply, Fault> {
    let key = visit.header("Idempotency-Key").ok_or_else(|| Fault::bad_request("key required"))?;
    let viewer = viewer_of(&visit);

    let slot = scoped(&site.org_id, &viewer, "cams.subscribe", key).map_err(Fault::bad_request)?;
    if let Some(prev) = desk.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let sub = desk.streams.subscribe(&site.org_id, &viewer, &req.cams, &req.plan).await?;
    let body = serde_json::to_vec(&sub).map_err(Fault::internal)?;
    desk.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}

/// Counts a stream start for the public "viewers right now" ticker.
pub async fn stream_started(visit: Visit, Shared(desk): Shared<CamDesk>, site: SiteOrg) -> Result<Reply, Fault> {
    let cam = visit.param("cam").ok_or_else(|| Fault::not_found("cam"))?;
    let viewer = visit.pass::<Member>().map(|m| m.user_id).unwrap_or_else(|| "anonymous".into());
    desk.analytics.record(&site.org_id, cam, &viewer).await?;
    Ok(Reply::empty(Status::NO_CONTENT))
}
