//! Add-on services during a boarding stay (baths, walks, medication rounds).

use idem_scope::Problem;
use serde::{Deserialize, Serialize};
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Addons {
    pub idem: Bunker,
    pub stays: crate::stays::StayBook,
}

#[derive(Serialize)]
struct AddonSlot<'a> {
    org_id: &'a str,
    user_id: &'a str,
    key: &'a str,
}

#[derive(Serialize)]
struct ChangeSlot<'a> {
    org_id: &'a str,
    user_id: &'a str,
    operation: &'a str,
    key: &'a str,
}

#[derive(Deserialize)]
pub struct AddonIn {
    pub stay_id: String,
    pub service: String,
    pub quantity: u8,
}

fn require_key(inb: &Inbound) -> Result<&str, Fault> {
    inb.header("Idempotency-Key").ok_or_else(|| Fault::problem(Problem::missing_key()))
}

pub async fn add_service(
    inb: Inbound,
    staff: Staff,
    st: Shared<Addons>,
    JsonIn(req): JsonIn<AddonIn>,
) -> Result<Sendback, Fault> {
    let k = require_key(&inb)?;
    let slot = serde_json::to_vec(&AddonSlot { org_id: &staff.org_id, user_id: &staff.user_id, key: k })?;
    if let Some(prev) = st.idem.get(&slot).await? {
        return Ok(Sendback::replay(prev));
    }
    let line = st.stays.add_service(&staff.org_id, &req.stay_id, &req.service, req.quantity).await?;
    let body = serde_json::to_vec(&line)?;
    st.idem.put(&slot, body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}

pub async fn change_service(
    inb: Inbound,
    staff: Staff,
    st: Shared<Addons>,
    JsonIn(req): JsonIn<AddonIn>,
) -> Result<Sendback, Fault> {
    let k = require_key(&inb)?;
    let slot = serde_json::to_vec(&ChangeSlot {
        org_id: &staff.org_id,
        user_id: &staff.user_id,
        operation: "/v1/stays/addons/change",
        key: k,
    })?;
    if let Some(prev) = st.idem.get(&slot).await? {
        return Ok(Sendback::replay(prev));
    }
    let line = st.stays.change_service(&staff.org_id, &req.stay_id, &req.service, req.quantity).await?;
    let body = serde_json::to_vec(&line)?;
    st.idem.put(&slot, body.clone()).await?;
    Ok(Sendback::raw_json(Code::Ok, body))
}
