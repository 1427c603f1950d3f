//! Installers book a site survey. Older app builds send the key as
//! `X-Idempotency-Key`, newer ones as `Idempotency-Key`.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

fn client_key(cx: &Cx) -> Option<String> {
    cx.header("Idempotency-Key")
        .or_else(|| cx.header("X-Idempotency-Key"))
        .map(|v| v.trim_matches('"').to_owned())
}

pub async fn book_survey(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = client_key(&cx) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(key.as_str()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let survey = crate::surveys::book(&who, cx.body_bytes()).await;
    let _ = bin.put(&key, survey.id.as_bytes()).await;
    Reply::text(Code::CREATED, survey.id)
}

pub async fn reschedule_survey(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = client_key(&cx) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/surveys/reschedule", &key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let moved = crate::surveys::reschedule(&who, cx.body_bytes()).await;
    let _ = bin.put(sk.storage_key(), moved.as_bytes()).await;
    Reply::text(Code::OK, moved)
}
