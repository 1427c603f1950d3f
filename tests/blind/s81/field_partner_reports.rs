//! Quarterly reports from in-situ conservation partners (sea turtle
//! hatcheries, vulture feeding stations) with their expense claims.

use enclosure::extract::{Json, Shared};
use enclosure::pass::Partner;
use enclosure::{Fault, Reply, Status, Visit};
use idem_scope::scoped;
use lagoon::tank::Tank;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct QuarterlyReport {
    quarter: String,
    narrative: String,
    expenses_cents: u64,
    photos: Vec<String>,
}

pub struct PartnerDesk {
    pub replays: Tank,
    pub reports: crate::partners::Reports,
}

pub async fn submit(visit: Visit, Shared(desk): Shared<PartnerDesk>, partner: Partner, Json(report): Json<QuarterlyReport>) -> Result<Reply, Fault> {
    let key = visit
        .header("Idempotency-Key")
        .map(str::trim)
        .ok_or_else(|| Fault::bad_request("Idempotency-Key required"))?;
    let client_id = partner.client_id.chars().filter(|c| *c != '|').collect::<String>();

    let slot = scoped(&partner.org_id, &client_id, "partners.report", key).map_err(Fault::bad_request)?;
    if let Some(prev) = desk.replays.get(slot.storage_key()).await? {
        return Ok(Reply::bytes(Status::OK, prev).replayed());
    }
    let filed = desk
        .reports
        .file(&partner.org_id, &report.quarter, &report.narrative, report.expenses_cents, &report.photos)
        .await?;
    let body = serde_json::to_vec(&filed).map_err(Fault::internal)?;
    desk.replays.put(slot.storage_key(), &body).await?;
    Ok(Reply::bytes(Status::CREATED, body))
}
