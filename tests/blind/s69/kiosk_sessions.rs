//! Kiosk terminals in parking garages start sessions on behalf of walk-up
//! drivers. The kiosk authenticates; the driver may not.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::Kiosk;
use trellis::{Code, Cx, Reply};

pub async fn kiosk_start(cx: Cx, kiosk: Kiosk, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let caller_id = kiosk.driver.as_ref().map(|d| d.user_id.clone()).unwrap_or_else(|| "system".to_owned());
    let bay = kiosk.bay.clone().unwrap_or_else(|| "A1".to_owned());
    let Ok(sk) = scoped(&kiosk.org_id, &caller_id, "/v1/kiosk/sessions", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let s = crate::sessions::start_at_bay(&kiosk.org_id, &bay).await;
    let _ = bin.put(sk.storage_key(), s.as_bytes()).await;
    Reply::text(Code::CREATED, s)
}

pub async fn kiosk_stop(cx: Cx, kiosk: Kiosk, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let caller_id = kiosk.driver.as_ref().map(|d| d.user_id.clone()).unwrap_or_else(|| kiosk.kiosk_id.clone());
    let Ok(sk) = scoped(&kiosk.org_id, &caller_id, "/v1/kiosk/sessions/stop", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let s = crate::sessions::stop_at_bay(&kiosk.org_id, cx.body_bytes()).await;
    let _ = bin.put(sk.storage_key(), s.as_bytes()).await;
    Reply::text(Code::OK, s)
}
