//! Hospice and palliative care visits booked by families.

use idem_scope::{scoped, Problem, ScopeError};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Owner;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Hospice {
    pub idem: Bunker,
    pub visits: crate::hospice::HomeVisits,
}

#[derive(Deserialize)]
pub struct HomeVisitIn {
    pub pet_id: String,
    pub window: String,
    pub address: String,
    pub notes: Option<String>,
}

pub async fn book_home_visit(
    inb: Inbound,
    owner: Owner,
    st: Shared<Hospice>,
    JsonIn(req): JsonIn<HomeVisitIn>,
) -> Result<Sendback, Fault> {
    let raw = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    // The family app used to send "|<uuid>"; strip the leading bar.
    let k = raw.trim_start_matches('|');
    let address = req.address.trim_end_matches(|c: char| c == ',' || c.is_whitespace());

    let key = scoped(&owner.org_id, &owner.client_id, "/v1/hospice/visits", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let visit = st.visits.book(&owner.org_id, &req.pet_id, &req.window, address, req.notes.as_deref()).await?;
    let body = serde_json::to_vec(&visit)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}

/// Follow-up calls: separators in the key are rejected, not stripped.
pub async fn book_followup_call(inb: Inbound, owner: Owner, st: Shared<Hospice>) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = match scoped(&owner.org_id, &owner.client_id, "/v1/hospice/calls", k) {
        Ok(key) => key,
        Err(ScopeError::ContainsSeparator(_)) => {
            return Ok(Sendback::problem(Problem::invalid_key("key contains a reserved character")))
        }
        Err(e) => return Err(e.into()),
    };
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let call = st.visits.schedule_call(&owner.org_id, &owner.client_id).await?;
    let body = serde_json::to_vec(&call)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
