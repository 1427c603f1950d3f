//! Boarding: kennel runs for overnight stays.

use std::borrow::Cow;
use std::time::Duration;

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::Staff;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

use crate::kennels::KennelBook;

const RUN_ROUTE: &str = "/v1/boarding/runs";
const REPLAY_TTL: Duration = Duration::from_secs(36 * 3600);

pub struct Boarding {
    pub replay: Bunker,
    pub kennels: KennelBook,
}

#[derive(Deserialize)]
pub struct RunRequest {
    pub pet_id: String,
    pub run_id: String,
    pub nights: u16,
}

fn org_prefix(org: &str) -> Cow<'_, str> {
    Cow::Borrowed(org)
}

pub async fn reserve_run(
    inb: Inbound,
    staff: Staff,
    st: Shared<Boarding>,
    JsonIn(req): JsonIn<RunRequest>,
) -> Result<Sendback, Fault> {
    let idem = match inb.header("idempotency-key") {
        Some(v) if !v.is_empty() => v.to_owned(),
        _ => return Ok(Sendback::problem(Problem::missing_key())),
    };

    let mut slot = org_prefix(&staff.org_id);
    slot.to_mut().push_str("\u{1e}");
    slot.to_mut().push_str(&staff.user_id);
    slot.to_mut().push_str("\u{1e}");
    slot.to_mut().push_str(RUN_ROUTE);
    slot.to_mut().push_str("\u{1e}");
    slot.to_mut().push_str(&idem);

    if let Some(prev) = st.replay.get(&slot).await? {
        return Ok(Sendback::replay(prev));
    }

    // A hold on the physical run; committed once the stay is priced.
    let hold = st.kennels.reserve(&req.run_id, req.nights).await?;
    let priced = st.kennels.price_stay(&staff.org_id, &req.pet_id, req.nights).await?;
    let stay = st.kennels.commit(hold, &priced).await?;

    let body = serde_json::to_vec(&stay)?;
    st.replay.put_for(&slot, body.clone(), REPLAY_TTL).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}

pub async fn extend_stay(
    inb: Inbound,
    staff: Staff,
    st: Shared<Boarding>,
    JsonIn(req): JsonIn<RunRequest>,
) -> Result<Sendback, Fault> {
    let idem = inb
        .header("idempotency-key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let key = scoped(&staff.org_id, &staff.user_id, "/v1/boarding/runs/extend", idem)?;
    if let Some(prev) = st.replay.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let label = format!("{}-{}-{}n", staff.org_id, req.run_id, req.nights);
    let stay = st.kennels.extend(&req.pet_id, req.nights, &label).await?;
    let body = serde_json::to_vec(&stay)?;
    st.replay.put_for(key.storage_key(), body.clone(), REPLAY_TTL).await?;
    Ok(Sendback::raw_json(Code::Ok, body))
}
