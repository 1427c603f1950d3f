//! Manual entry of results for point-of-care tests (SNAP tests, smears).

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct PocResults {
    pub idem: Bunker,
    pub chart: crate::records::MedicalRecord,
}

#[derive(Deserialize)]
pub struct PocIn {
    pub pet_id: String,
    pub test: String,
    pub outcome: String,
    pub comment: Option<String>,
}

pub async fn enter_result(
    inb: Inbound,
    staff: Staff,
    st: Shared<PocResults>,
    JsonIn(req): JsonIn<PocIn>,
) -> Result<Sendback, Fault> {
    let raw = inb
        .header_bytes("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    // Some bench tablets NUL-terminate the header value.
    let k = String::from_utf8_lossy(raw).replacen('\0', "", 1);
    let comment = req.comment.as_deref().map(|c| c.replace('\n', " ")).unwrap_or_default();

    let key = scoped(&staff.org_id, &staff.user_id, "/v1/lab/poc-results", &k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let row = st.chart.add_poc_result(&staff.org_id, &req.pet_id, &req.test, &req.outcome, &comment).await?;
    let body = serde_json::to_vec(&row)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
