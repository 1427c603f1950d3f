//! Claim-status callbacks from the Petly insurer, and owner requests to
//! appeal a decision. Both write to the same replay store in disjoint
//! keyspaces: owner requests under "u:", insurer deliveries under "cb:".

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Owner;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct InsurerDesk {
    pub replay: Bunker,
    pub claims: crate::insurance::ClaimTracker,
    pub hook_secret: Vec<u8>,
}

#[derive(Deserialize)]
pub struct StatusCallback {
    pub claim_number: String,
    pub status: String,
    pub paid_cents: Option<i64>,
}

#[derive(Deserialize)]
pub struct AppealIn {
    pub claim_number: String,
    pub reason: String,
}

pub async fn petly_status(inb: Inbound, st: Shared<InsurerDesk>, JsonIn(cb): JsonIn<StatusCallback>) -> Result<Sendback, Fault> {
    if !crate::insurance::verify_petly(&st.hook_secret, &inb) {
        return Ok(Sendback::status(Code::Unauthorized));
    }
    let delivery = inb
        .header("X-Petly-Delivery")
        .ok_or_else(|| Fault::bad_request("X-Petly-Delivery"))?;
    let slot = format!("cb:{}", delivery);
    if st.replay.exists(&slot).await? {
        return Ok(Sendback::status(Code::Ok));
    }
    st.claims.update_status(&cb.claim_number, &cb.status, cb.paid_cents.unwrap_or(0)).await?;
    st.replay.put(&slot, b"ok".to_vec()).await?;
    Ok(Sendback::status(Code::Ok))
}

pub async fn appeal(inb: Inbound, owner: Owner, st: Shared<InsurerDesk>, JsonIn(req): JsonIn<AppealIn>) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&owner.org_id, &owner.client_id, "/v1/insurance/appeals", k)?;
    let slot = format!("u:{}", key.storage_key());
    if let Some(prev) = st.replay.get(&slot).await? {
        return Ok(Sendback::replay(prev));
    }
    let filed = st.claims.appeal(&owner.org_id, &req.claim_number, &req.reason).await?;
    let body = serde_json::to_vec(&filed)?;
    st.replay.put(&slot, body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
