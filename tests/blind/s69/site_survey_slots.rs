//! Struct keys for the survey calendar (stored via the typed bin API).

use garner::bin::TypedBin;
use serde::Serialize;
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

#[derive(Serialize, Hash, PartialEq, Eq)]
pub struct SlotKey<'a> {
    pub org_id: &'a str,
    pub user_id: &'a str,
    pub route: &'a str,
    pub key: &'a str,
}

#[derive(Serialize, Hash, PartialEq, Eq)]
pub struct CalendarKey<'a> {
    pub org_id: &'a str,
    pub route: &'a str,
    pub key: &'a str,
}

pub async fn hold_slot(cx: Cx, who: Identity, bin: &TypedBin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let k = SlotKey { org_id: &who.org_id, user_id: &who.user_id, route: "/v1/surveys/hold", key };
    if let Ok(Some(v)) = bin.get(&k).await {
        return Reply::bytes(Code::OK, v);
    }
    let hold = crate::surveys::hold(&who).await;
    let _ = bin.put(&k, hold.as_bytes()).await;
    Reply::text(Code::CREATED, hold)
}

pub async fn release_slot(cx: Cx, who: Identity, bin: &TypedBin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let ck = CalendarKey {
        org_id: &who.org_id,
        route: "/v1/surveys/release",
        key,
    };
    if bin.exists(&ck).await.unwrap_or(false) {
        return Reply::status(Code::OK);
    }
    crate::surveys::release(&who).await;
    let _ = bin.put(&ck, b"released").await;
    Reply::status(Code::OK)
}
