//! Subscription plan changes. Keys are CBOR-encoded tuples so the ops team
//! can decode them from the KV browser.

use garner::bin::Bin;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

const ROUTE: &str = "/v1/subscriptions/plan";

pub async fn change_plan(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let slot = match cbor4ii::serde::to_vec(Vec::new(), &(who.org_id.as_str(), key)) {
        Ok(v) => v,
        Err(_) => return Reply::status(Code::INTERNAL_SERVER_ERROR),
    };
    if let Ok(Some(prev)) = bin.get(&slot).await {
        return Reply::bytes(Code::OK, prev);
    }
    let plan = crate::plans::switch(&who, cx.body_bytes()).await;
    let _ = bin.put(&slot, plan.as_bytes()).await;
    Reply::text(Code::OK, plan)
}

pub async fn cancel_plan(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let tuple = (who.org_id.as_str(), who.user_id.as_str(), ROUTE, "cancel", key);
    let slot = cbor4ii::serde::to_vec(Vec::new(), &tuple).unwrap_or_default();
    if bin.exists(&slot).await.unwrap_or(false) {
        return Reply::status(Code::OK);
    }
    let done = crate::plans::cancel(&who).await;
    let audit = cbor4ii::serde::to_vec(Vec::new(), &(who.org_id.as_str(), done.as_str())).unwrap_or_default();
    crate::audit::append(audit).await;
    let _ = bin.put(&slot, done.as_bytes()).await;
    Reply::text(Code::OK, done)
}
