//! Delivery-window changes for contracted grain. Replay records are keyed by
//! a small JSON document so operators can read them in the console.

use bushel::crock::Crock;
use furrow::glean::Json;
use furrow::warrant::{Grower, ScaleOperator};
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::Problem;
use serde::{Deserialize, Serialize};

#[derive(Serialize)]
struct WindowKey<'a> {
    org_id: &'a str,
    route: &'a str,
    key: &'a str,
}

#[derive(Serialize)]
struct OperatorKey<'a> {
    org_id: &'a str,
    user_id: &'a str,
    route: &'a str,
    key: &'a str,
}

#[derive(Deserialize)]
pub struct WindowChange {
    pub contract_no: String,
    pub from: String,
    pub to: String,
}

pub struct Yard {
    pub crock: Crock,
    pub schedule: DeliverySchedule,
}

pub async fn move_window(p: Petition, Shared(yard): Shared<Yard>, g: Grower, Json(ch): Json<WindowChange>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let doc = serde_json::to_string(&WindowKey { org_id: &g.org_id, route: "delivery_window", key: k }).unwrap_or_default();
    if let Ok(Some(prev)) = yard.crock.get(&doc).await {
        return Ruling::ok().bytes(prev);
    }
    let moved = match yard.schedule.move_window(&ch.contract_no, &ch.from, &ch.to).await {
        Ok(m) => m,
        Err(e) => return Ruling::with(StatusLine::CONFLICT).text(&e.to_string()),
    };
    let body = furrow::codec::to_vec(&moved).unwrap_or_default();
    let _ = yard.crock.put(&doc, body.clone()).await;
    Ruling::ok().bytes(body)
}

/// Scale operators can shift a truck's slot at the window; they are the
/// principal here, not the grower.
pub async fn shift_slot(p: Petition, Shared(yard): Shared<Yard>, op: ScaleOperator, Json(ch): Json<WindowChange>) -> Ruling {
    let Some(k) = p.header("Idempotency-Key") else {
        return Ruling::problem(Problem::missing_key());
    };
    let doc = serde_json::to_string(&OperatorKey { org_id: &op.org_id, user_id: &op.user_id, route: "slot_shift", key: k }).unwrap_or_default();
    if let Ok(Some(prev)) = yard.crock.get(&doc).await {
        return Ruling::ok().bytes(prev);
    }
    let shifted = yard.schedule.shift(&ch.contract_no, &ch.to).await;
    let body = furrow::codec::to_vec(&shifted).unwrap_or_default();
    let _ = yard.crock.put(&doc, body.clone()).await;
    Ruling::ok().bytes(body)
}
