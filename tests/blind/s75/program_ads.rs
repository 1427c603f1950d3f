//! Programme advertising: promoters and local businesses book ad slots in the
//! printed season programme and upload proofs.
use std::time::Duration;

use itertools::Itertools;
use loft::batten::Batten;
use loft::wings::Wings;
use proscenium::callout::Callout;
use proscenium::draw::JsonPart;
use proscenium::pass::Promoter;
use proscenium::{Curtain, Cue, Flub, House};
use serde::Deserialize;

const KEEP: Duration = Duration::from_secs(14 * 86_400);

#[derive(Deserialize)]
pub struct SlotBooking {
    pub season: String,
    pub issue: String,
    pub size: String,
}

pub struct AdDesk {
    pub batten: Batten,
    pub wings: Wings,
    pub printer_url: String,
    pub inventory: crate::ads::Inventory,
}

pub async fn book_ad_slot(cue: Cue, promoter: Promoter, JsonPart(req): JsonPart<SlotBooking>, desk: House<AdDesk>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::bad_request("Idempotency-Key is required"))?;
    let slot = [promoter.account_id.as_str(), promoter.client_id.as_str(), "book_ad_slot", key].into_iter().join("\u{1e}");
    if let Some(previous) = desk.batten.get(&slot).await? {
        return Ok(Curtain::replay(Some(previous)));
    }
    let booking = desk.inventory.book(&promoter.account_id, &req.season, &req.issue, &req.size).await?;
    let body = serde_json::to_vec(&booking).map_err(Flub::internal)?;
    desk.batten.put(&slot, body.clone(), KEEP).await?;
    Ok(Curtain::bytes(201, body))
}

/// Stores the proof PDF and forwards it to the print vendor. The vendor's API is
/// itself idempotent, so the client's key is passed on with a suffix per step.
pub async fn upload_proof(cue: Cue, promoter: Promoter, desk: House<AdDesk>) -> Result<Curtain, Flub> {
    let key = cue
        .header("Idempotency-Key")
        .ok_or_else(|| Flub::bad_request("Idempotency-Key is required"))?;
    let season = cue.param("season").ok_or_else(|| Flub::not_found("season"))?;
    let issue = cue.param("issue").ok_or_else(|| Flub::not_found("issue"))?;
    let object_path = ["programme", season, issue, promoter.account_id.as_str()].join("/");
    desk.wings.put_object(&object_path, cue.body().to_vec()).await?;
    Callout::post(&format!("{}/proofs", desk.printer_url))
        .header("Idempotency-Key", format!("{key}-proof"))
        .header("X-Proof-Path", &object_path)
        .send()
        .await
        .map_err(Flub::upstream)?;
    Ok(Curtain::new(202))
}
