//! White-label portals address organisations by slug (`acme:north`).

use garner::bin::Bin;
use idem_scope::{scoped, Problem};
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub async fn portal_order(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let slug = cx.param("org_slug").unwrap_or_default();
    let org_id = slug.replace(':', "_");
    if org_id != who.org_id {
        return Reply::status(Code::FORBIDDEN);
    }
    let Ok(sk) = scoped(&org_id, &who.user_id, "/v1/portal/orders", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let order = crate::portal::order(&org_id, cx.body_bytes()).await;
    let _ = bin.put(sk.storage_key(), order.as_bytes()).await;
    Reply::text(Code::CREATED, order)
}

pub async fn portal_cancel(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let slug = cx.param("org_slug").unwrap_or_default();
    if slug.contains(':') || slug.contains('\0') {
        return Reply::problem(Problem::invalid_key("organisation slug contains a separator"));
    }
    let display = slug.replace('_', " ");
    let Ok(sk) = scoped(&slug, &who.user_id, "/v1/portal/orders/cancel", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let done = crate::portal::cancel(&slug, cx.body_bytes()).await;
    let _ = bin.put(sk.storage_key(), done.as_bytes()).await;
    Reply::text(Code::OK, format!("{display}: {done}"))
}
