//! Wellness plan enrolment (monthly preventive-care plans).

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::MaybeOwner;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

const GUEST_CLIENT: &str = "guest";
const PLAN_TIER_DEFAULT: &str = "essential";

pub struct Wellness {
    pub idem: Bunker,
    pub plans: crate::plans::PlanBook,
}

#[derive(Deserialize)]
pub struct EnrolIn {
    pub pet_id: String,
    pub tier: Option<String>,
    pub start_month: String,
}

pub async fn enrol(
    inb: Inbound,
    who: MaybeOwner,
    st: Shared<Wellness>,
    JsonIn(req): JsonIn<EnrolIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let org = inb.path_param("org").ok_or_else(|| Fault::bad_request("org"))?;
    let client = who.0.as_ref().map_or(GUEST_CLIENT, |o| o.client_id.as_str());
    let tier = req.tier.as_deref().unwrap_or(PLAN_TIER_DEFAULT);

    let key = scoped(org, client, "/v1/wellness/enrolments", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let plan = st.plans.enrol(org, &req.pet_id, tier, &req.start_month).await?;
    let body = serde_json::to_vec(&plan)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}

/// Plan changes require a logged-in owner; no fallback.
pub async fn change_tier(
    inb: Inbound,
    who: MaybeOwner,
    st: Shared<Wellness>,
    JsonIn(req): JsonIn<EnrolIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let owner = who.0.ok_or_else(|| Fault::status(Code::Unauthorized))?;
    let key = scoped(&owner.org_id, &owner.client_id, "/v1/wellness/tier", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let tier = req.tier.as_deref().unwrap_or(PLAN_TIER_DEFAULT);
    let plan = st.plans.change_tier(&owner.org_id, &req.pet_id, tier).await?;
    let body = serde_json::to_vec(&plan)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Ok, body))
}
