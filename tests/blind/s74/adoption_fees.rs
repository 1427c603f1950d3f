//! Adoption fee payments for shelter partners.

use idem_scope::Problem;
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Owner;
use stirrup::lift::FormIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

use crate::policy::KeyPolicy;

const FEE_ROUTE: &str = "/v1/adoptions/fees";

pub struct Adoptions {
    pub ledger_idem: Bunker,
    pub policy: KeyPolicy,
    pub shelter: crate::shelter::ShelterApi,
}

#[derive(Deserialize)]
pub struct FeeForm {
    pub animal_id: String,
    pub amount_cents: i64,
    pub donation_cents: Option<i64>,
}

pub async fn pay_fee(
    inb: Inbound,
    owner: Owner,
    st: Shared<Adoptions>,
    FormIn(form): FormIn<FeeForm>,
) -> Result<Sendback, Fault> {
    let Some(raw) = inb.header("Idempotency-Key") else {
        return Ok(Sendback::problem(Problem::missing_key()));
    };

    // The key policy talks to the shelter's blocking licence server, so the
    // check runs off the async workers; it hands back the slot to use.
    let policy = st.policy.clone();
    let (org_id, client_id, k) = (owner.org_id.clone(), owner.client_id.clone(), raw.to_owned());
    let route = FEE_ROUTE;
    let slot = tokio::task::spawn_blocking(move || {
        policy.check_length(&k)?;
        Ok::<_, crate::policy::PolicyError>(format!("{org_id}/{client_id}/{route}/{k}"))
    })
    .await??;

    if let Some(prev) = st.ledger_idem.get(&slot).await? {
        return Ok(Sendback::replay(prev));
    }
    let total = form.amount_cents + form.donation_cents.unwrap_or(0);
    let receipt = st.shelter.charge(&owner.org_id, &form.animal_id, total).await?;
    let body = serde_json::to_vec(&receipt)?;
    st.ledger_idem.put(&slot, body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}

/// Certificate file name for the adoption pack; never used as a key.
pub fn certificate_name(owner: &Owner, animal_id: &str) -> String {
    let org = &owner.org_id;
    format!("{org}/certificates/{animal_id}.pdf")
}
