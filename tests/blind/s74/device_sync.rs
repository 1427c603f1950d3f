//! Offline sync from the mobile vet app (farm calls, house calls).
//!
//! The app queues visits while offline and uploads them with the key it
//! generated when the visit was recorded.

use idem_scope::{scoped, Problem};
use serde::Deserialize;
use silage::bunker::Bunker;
use stirrup::creds::DeviceToken;
use stirrup::lift::JsonIn;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

const SHARED_ORG: &str = "shared";
const SYNC_ROUTE: &str = "/v1/mobile/visits/sync";

pub struct MobileSync {
    pub idem: Bunker,
    pub visits: crate::visits::VisitLog,
}

#[derive(Deserialize)]
pub struct OfflineVisit {
    pub recorded_at: String,
    pub pet_id: String,
    pub notes: String,
    pub charges: Vec<(String, i64)>,
}

pub async fn sync_visit(
    inb: Inbound,
    token: DeviceToken,
    st: Shared<MobileSync>,
    JsonIn(visit): JsonIn<OfflineVisit>,
) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;

    // Devices enrolled before multi-practice support carry no org claim.
    let org: &str = if let Some(org) = token.org_id.as_deref() {
        org
    } else {
        SHARED_ORG
    };

    let key = scoped(org, &token.user_id, SYNC_ROUTE, k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let saved = st.visits.import(org, &visit.pet_id, &visit.recorded_at, &visit.notes, &visit.charges).await?;
    let body = serde_json::to_vec(&saved)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}

/// Photo uploads from the same app: the org claim is mandatory here.
pub async fn sync_photo(inb: Inbound, token: DeviceToken, st: Shared<MobileSync>) -> Result<Sendback, Fault> {
    let k = inb
        .header("Idempotency-Key")
        .ok_or_else(|| Fault::problem(Problem::missing_key()))?;
    let Some(org) = token.org_id.as_deref() else {
        return Ok(Sendback::problem(Problem::invalid_key("device is not enrolled in a practice")));
    };
    let key = scoped(org, &token.user_id, "/v1/mobile/photos", k)?;
    if let Some(prev) = st.idem.get(key.storage_key()).await? {
        return Ok(Sendback::replay(prev));
    }
    let stored = st.visits.attach_photo(org, inb.body()).await?;
    let body = serde_json::to_vec(&stored)?;
    st.idem.put(key.storage_key(), body.clone()).await?;
    Ok(Sendback::raw_json(Code::Created, body))
}
