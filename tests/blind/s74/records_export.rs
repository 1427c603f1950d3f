//! Medical-record exports (for referrals, second opinions, moving clinics).

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::blob::Blobs;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};
use uuid::Uuid;

pub struct Exports {
    pub idem: Bunker,
    pub blobs: Blobs,
    pub records: crate::records::MedicalRecord,
}

#[derive(Deserialize)]
pub struct ExportIn {
    pub pet_id: String,
    pub format: String,
    pub since: Option<String>,
}

pub async fn export_record(
    inb: Inbound,
    staff: Staff,
    st: Shared<Exports>,
    JsonIn(req): JsonIn<ExportIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    // Route ids look like "/v1/records/{pet}/export"; keep them flat.
    let route = inb.route_id().replace('/', "_");
    let metric_route = inb.route_id().trim_start_matches('/').replace('/', ".");
    metrics_counter(&metric_route);

    let key = scoped(&staff.org_id, &staff.user_id, &route, k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let archive = st.records.export(&staff.org_id, &req.pet_id, &req.format, req.since.as_deref()).await?;
    let export_id = Uuid::new_v4();
    st.blobs.put(&format!("exports/{}/{}.zip", staff.org_id, export_id), archive).await?;
    let body = serde_json::to_vec(&serde_json::json!({ "export_id": export_id.to_string() }))?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Accepted, body))
}

fn metrics_counter(route: &str) {
    tracing::trace!(counter.exports = 1, route, "export requested");
}
