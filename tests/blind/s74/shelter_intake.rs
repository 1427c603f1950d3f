//! Shelter intake: strays and surrenders registered by shelter volunteers.

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Volunteer;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Intake {
    pub idem: Bunker,
    pub kennels: crate::shelter::Kennels,
}

#[derive(Deserialize)]
pub struct IntakeIn {
    pub species: String,
    pub found_at: Option<String>,
    pub chip_number: Option<String>,
}

pub async fn register_intake(
    inb: Inbound,
    vol: Volunteer,
    st: Shared<Intake>,
    JsonIn(req): JsonIn<IntakeIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    // Volunteers on the shared front-desk tablet are not signed in individually.
    let user = vol.badge_id.as_deref().filter(|s| !s.is_empty()).unwrap_or("anon");
    let found_at = req.found_at.as_deref().filter(|s| !s.is_empty()).unwrap_or("unknown location");

    let key = scoped(&vol.org_id, user, "/v1/shelter/intake", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let animal = st.kennels.admit(&vol.org_id, &req.species, found_at, req.chip_number.as_deref()).await?;
    let body = serde_json::to_vec(&animal)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
