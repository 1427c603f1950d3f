//! Vaccination records entered during exams.

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Vaccines {
    pub idem: Bunker,
    pub chart: crate::records::MedicalRecord,
}

#[derive(Deserialize)]
pub struct VaccineIn {
    pub pet_id: String,
    pub product: String,
    pub lot_number: String,
    pub site: String,
    pub given_at: String,
}

pub async fn record_vaccination(
    inb: Inbound,
    staff: Staff,
    st: Shared<Vaccines>,
    JsonIn(req): JsonIn<VaccineIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    if k.contains('\0') || k.contains('\u{1e}') {
        return Ok(Sendback::problem(Problem::invalid_key("control characters are not allowed")));
    }

    // Orgs migrated from the old practice system look like "pms:1042".
    let org = staff.org_id.replace(':', "");
    let lot = req.lot_number.trim().to_ascii_uppercase();

    let key = scoped(&org, &staff.user_id, "/v1/vaccinations", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let entry = st.chart.add_vaccination(&staff.org_id, &req.pet_id, &req.product, &lot, &req.site, &req.given_at).await?;
    let body = serde_json::to_vec(&entry)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
