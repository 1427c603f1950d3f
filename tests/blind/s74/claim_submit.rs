//! Pet insurance: owners file claims for covered treatment.
//!
//! Careful with words here: an insurance *claim* is the business object; the
//! idempotency claim is the in-progress marker in `idem`.

use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use oso::Oso;
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Owner;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

const LEASE: Duration = Duration::from_secs(120);
const ROUTE: &str = "/v1/insurance/claims";

pub struct ClaimsDesk {
    pub idem: Bunker,
    pub oso: Oso,
    pub policies: crate::insurance::Policies,
    pub benefits: crate::insurance::BenefitPool,
    pub insurer: crate::insurance::InsurerApi,
}

#[derive(Deserialize)]
pub struct ClaimForm {
    pub pet_id: String,
    pub invoice_ids: Vec<String>,
    pub amount_cents: i64,
    pub diagnosis: String,
}

fn forbidden() -> Fault {
    Fault::status(Code::Forbidden)
}

pub async fn file_claim(
    inb: Inbound,
    owner: Owner,
    st: Shared<ClaimsDesk>,
    JsonIn(form): JsonIn<ClaimForm>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&owner.org_id, &owner.client_id, ROUTE, k)?;
    let fp = Fingerprint::of(ROUTE, inb.body());

    if !st.idem.claim(key.storage_key(), LEASE).await? {
        return Ok(Sendback::problem(Problem::in_progress(k)));
    }

    let policy = st.policies.for_pet(&owner.org_id, &form.pet_id).await?;
    let allowed = st.oso.is_allowed(owner.clone(), "file_claim", policy.clone()).map_err(Fault::internal)?;
    if !allowed {
        return Err(forbidden());
    }

    // Earmark the benefit amount on the policy year until the insurer answers.
    let earmark = st.benefits.reserve(&policy.policy_id, form.amount_cents).await?;
    let filed = st.insurer.submit(&policy, &form.invoice_ids, form.amount_cents, &form.diagnosis).await?;
    st.benefits.commit(earmark).await?;

    let body = serde_json::to_vec(&filed)?;
    st.idem.complete(key.storage_key(), &fp, &body).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
