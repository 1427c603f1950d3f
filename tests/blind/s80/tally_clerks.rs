//! Tally clerks' handhelds: discrepancy reports (wrong seal, damage, wrong
//! position) logged at the ship side. Handhelds are enrolled per stevedore.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Handheld;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

const SHARED_TENANT: &str = "shared";

#[derive(Deserialize)]
pub struct Discrepancy {
    pub container_no: String,
    pub kind: String,
    pub position: String,
    pub photo_ids: Vec<String>,
}

pub struct TallyDesk {
    pub replies: Hold,
    pub reports: tally_core::Reports,
}

pub async fn report_discrepancy(td: Shared<TallyDesk>, device: Handheld, call: Call, Json(d): Json<Discrepancy>) -> Result<Answer, Snag> {
    let k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?;
    let org_id = device.org_id.clone().unwrap_or_else(|| SHARED_TENANT.to_string());
    let caller_id = device.clerk_uid.clone().unwrap_or_else(|| device.uid.clone());
    let bay_row_tier = d.position.replace('-', "");

    let key = scoped(&org_id, &caller_id, call.route_template(), k).map_err(Snag::bad_request)?;
    if let Some(prev) = td.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let report = td.reports.file(&d.container_no, &d.kind, &bay_row_tier, &d.photo_ids).await?;
    let answer = Answer::json(Status::CREATED, &report);
    td.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
