//! Paperless e-bill enrolment from the marketing landing page.

use aquifer::tank::Tank;
use idem_scope::scoped;
use penstock::badge::Customer;
use penstock::extract::Form;
use penstock::{Code, Fault, Outflow};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize)]
pub struct EbillForm {
    pub email: String,
    pub service_no: String,
    pub consent_version: String,
}

pub async fn enrol_ebill(who: Customer, Form(form): Form<EbillForm>, replay_tank: Tank) -> Result<Outflow, Fault> {
    let tenant = who.tenant_id.clone();
    let user = who.user_id.clone();
    let work = async move {
        let bytes = serde_json::to_vec(&form)?;
        let body_seed = seahash::hash(&bytes).to_string();
        let slot = scoped(&tenant, &user, "ebill-enrol", &body_seed)?;
        if let Some(prev) = replay_tank.get(slot.storage_key()).await? {
            return Ok::<_, Fault>(Outflow::replayed(prev));
        }
        let enrolled = crate::billing::paperless().enrol(&tenant, &user, &form.email, &form.service_no).await?;
        let out = Outflow::json(Code::CREATED, &enrolled);
        replay_tank.put(slot.storage_key(), &out).await?;
        Ok(out)
    };
    work.await
}
