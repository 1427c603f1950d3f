//! Autoship for chronic medications: owners enrol, or a vet enrols for them.

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::{MaybeOwner, Staff};
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

pub struct Autoship {
    pub idem: Bunker,
    pub schedules: crate::rx::AutoshipSchedules,
}

#[derive(Deserialize)]
pub struct AutoshipIn {
    pub rx_id: String,
    pub every_days: u16,
    pub first_ship: Option<String>,
}

/// `POST /v1/rx/autoship`: reachable from the owner app and from the clinic
/// desktop; the desk session carries no owner.
pub async fn enrol_autoship(
    inb: Inbound,
    staff: Staff,
    owner: MaybeOwner,
    st: Shared<Autoship>,
    JsonIn(req): JsonIn<AutoshipIn>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let actor = owner.0.map(|o| o.client_id).unwrap_or_else(|| "system".to_owned());
    let first = req.first_ship.clone().unwrap_or_else(|| chrono::Utc::now().date_naive().to_string());

    let key = scoped(&staff.org_id, &actor, "/v1/rx/autoship", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let sched = st.schedules.create(&staff.org_id, &req.rx_id, req.every_days, &first, &staff.user_id).await?;
    let body = serde_json::to_vec(&sched)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}

/// Pausing is desk-only and keyed by the staff member who pressed the button.
pub async fn pause_autoship(inb: Inbound, staff: Staff, st: Shared<Autoship>, rx_id: String) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/rx/autoship/pause", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    st.schedules.pause(&staff.org_id, &rx_id).await?;
    st.idem.put(key.storage_key(), b"{\"paused\":true}".to_vec()).await?;
    Ok(Sendback::status(Code::Ok))
}
