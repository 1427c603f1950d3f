//! Owner portal: profile and communication preferences.

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Owner;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Portal {
    pub idem: Bunker,
    pub owners: crate::owners::OwnerBook,
}

#[derive(Deserialize)]
pub struct ProfileIn {
    pub display_name: String,
    pub phone: String,
    pub sms_opt_in: bool,
}

pub async fn update_profile(
    inb: Inbound,
    owner: Owner,
    st: Shared<Portal>,
    JsonIn(req): JsonIn<ProfileIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;

    // Client ids imported from the legacy PMS carry a '#' household marker.
    let tidy = |s: &str| s.replace('#', "");
    let display = req.display_name.trim().replace('\t', " ");

    let key = scoped(&owner.org_id, &tidy(&owner.client_id), "/v1/portal/profile", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let saved = st.owners.update_profile(&owner.org_id, &owner.client_id, &display, &req.phone, req.sms_opt_in).await?;
    let body = serde_json::to_vec(&saved)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Ok, body))
}
