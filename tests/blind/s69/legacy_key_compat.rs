//! Compatibility shim for app versions < 4.2 which sent keys prefixed with
//! `:` (a bug in the old HTTP client).

use garner::bin::Bin;
use idem_scope::{scoped, Problem};
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub async fn legacy_start(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(hdr) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let app_version = cx.header("X-App-Version").unwrap_or("0.0.0");
    let key = if app_version < "4.2.0" { hdr.trim_start_matches(':') } else { hdr };
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/sessions/start", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let s = crate::sessions::start_legacy(&who, cx.body_bytes()).await;
    let _ = bin.put(sk.storage_key(), s.as_bytes()).await;
    Reply::text(Code::CREATED, s)
}

pub async fn legacy_stop(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(hdr) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    if hdr.starts_with(':') {
        return Reply::problem(Problem::invalid_key("update the app: key starts with ':'"));
    }
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/sessions/stop", hdr) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let s = crate::sessions::stop_legacy(&who, cx.body_bytes()).await;
    let _ = bin.put(sk.storage_key(), s.as_bytes()).await;
    Reply::text(Code::OK, s)
}
