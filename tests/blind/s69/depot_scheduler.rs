//! Depot charging schedules for bus operators. Requests come either from
//! an operator user or from the depot's building-management system.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::{Identity, MaybeIdentity};
use trellis::{Code, Cx, Reply};

pub async fn plan_night(cx: Cx, who: MaybeIdentity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let depot = cx.param("depot").unwrap_or_default();
    let org_id = match &who.0 {
        Some(i) => i.org_id.clone(),
        None => "shared".to_owned(),
    };
    let user_id = if let Some(i) = &who.0 {
        i.user_id.clone()
    } else {
        String::from("nobody")
    };
    let Ok(sk) = scoped(&org_id, &user_id, "/v1/depots/schedules", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let plan = crate::depots::plan(&depot, cx.body_bytes()).await;
    let _ = bin.put(sk.storage_key(), plan.as_bytes()).await;
    Reply::text(Code::OK, plan)
}

pub async fn plan_day(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let shift = match cx.query("shift").as_deref() {
        Some("early") => "early",
        Some("late") => "late",
        _ => "default",
    };
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/depots/schedules/day", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let plan = crate::depots::plan_shift(&who.org_id, shift).await;
    let _ = bin.put(sk.storage_key(), plan.as_bytes()).await;
    Reply::text(Code::OK, plan)
}
