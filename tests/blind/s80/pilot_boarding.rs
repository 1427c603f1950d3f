//! Pilot boarding confirmations sent from the pilot boat app when the pilot
//! is on the bridge (or disembarked). The app is offline-first and resends.

use ballast::hold::Hold;
use hawser::extract::{Json, Shared};
use hawser::pass::Pilot;
use hawser::{Answer, Call, Snag, Status};
use idem_scope::scoped;
use serde::Deserialize;

#[derive(Deserialize)]
pub struct Boarding {
    pub imo: String,
    pub event: String,
    pub at: jiff::Timestamp,
    pub lat: f64,
    pub lon: f64,
    pub remarks: String,
}

pub struct PilotStation {
    pub replies: Hold,
    pub log: pilot_log::Journal,
}

pub async fn confirm_boarding(ps: Shared<PilotStation>, pilot: Pilot, call: Call, Json(b): Json<Boarding>) -> Result<Answer, Snag> {
    let mut k = call.header("Idempotency-Key").ok_or_else(Snag::missing_key)?.to_owned();
    k.retain(|c| c != '\0');
    let mut remarks = b.remarks.clone();
    remarks.retain(|c| c != '\0');

    let key = scoped(&pilot.org_id, &pilot.uid, call.route_template(), &k).map_err(Snag::bad_request)?;
    if let Some(prev) = ps.replies.get(key.storage_key()).await? {
        return Ok(Answer::replay(prev));
    }
    let entry = ps.log.record(&b.imo, &b.event, b.at, (b.lat, b.lon), &remarks).await?;
    let answer = Answer::json(Status::CREATED, &entry);
    ps.replies.put(key.storage_key(), &answer.to_bytes()).await?;
    Ok(answer)
}
