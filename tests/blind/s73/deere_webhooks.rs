//! Event notifications from the John Deere Operations Center (field
//! operations completed, work plans changed). Growers also upload work
//! plans through us; both paths record their outcome in the same crock.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::{scoped, scoped_server, Problem};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeereEvent {
    pub event_id: String,
    pub event_type: String,
    pub org_id: String,
    pub client_id: String,
    pub resource_uri: String,
}

#[derive(Deserialize)]
pub struct WorkPlan {
    pub field_id: String,
    pub operation_type: String,
    pub product: String,
}

pub struct OpsCenter {
    pub crock: Crock,
    pub secret: Vec<u8>,
    pub sync: FieldOpsSync,
}

pub async fn deere_event(p: Petition, Shared(oc): Shared<OpsCenter>, Json(ev): Json<DeereEvent>) -> Ruling {
    if !furrow::sig::verify_hmac_sha256(&oc.secret, p.body(), p.header("x-deere-signature")) {
        return Ruling::with(StatusLine::UNAUTHORIZED);
    }
    let key = match ev.event_type.as_str() {
        "WorkPlanDeleted" => scoped_server(&ev.org_id, &ev.client_id, "deere_event", &ev.event_id),
        _ => scoped(&ev.org_id, &ev.client_id, "deere_event", &ev.event_id),
    };
    let Ok(key) = key else {
        return Ruling::with(StatusLine::BAD_REQUEST);
    };
    if let Ok(true) = oc.crock.exists(key.storage_key()).await {
        return Ruling::ok();
    }
    oc.sync.pull(&ev.resource_uri).await;
    let _ = oc.crock.put(key.storage_key(), ev.event_type.clone().into_bytes()).await;
    Ruling::ok()
}

pub async fn upload_work_plan(p: Petition, Shared(oc): Shared<OpsCenter>, g: Grower, Json(wp): Json<WorkPlan>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let key = match scoped(&g.org_id, &g.user_id, "work_plan_upload", k) {
        Ok(key) => key,
        Err(e) => return Ruling::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = oc.crock.get(key.storage_key()).await {
        return Ruling::ok().bytes(prev);
    }
    let plan = oc.sync.push_plan(&g.org_id, &wp.field_id, &wp.operation_type, &wp.product).await;
    let body = furrow::codec::to_vec(&plan).unwrap_or_default();
    let _ = oc.crock.put(key.storage_key(), body.clone()).await;
    Ruling::created().bytes(body)
}
