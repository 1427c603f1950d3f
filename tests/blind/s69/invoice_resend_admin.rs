//! Resending invoices: customers resend from the app; support staff can
//! force a resend from the admin console.

use garner::bin::Bin;
use idem_scope::scoped;
use trellis::guard::{Identity, StaffSession};
use trellis::{Code, Cx, Reply};

pub async fn resend(cx: Cx, who: Identity, outbox: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let invoice = cx.param("invoice").unwrap_or_default();
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/invoices/resend", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if outbox.exists(sk.storage_key()).await.unwrap_or(false) {
        return Reply::status(Code::OK);
    }
    crate::mail::send_invoice(&who.org_id, &invoice).await;
    let _ = outbox.put(sk.storage_key(), invoice.as_bytes()).await;
    Reply::status(Code::ACCEPTED)
}

pub async fn force_resend(cx: Cx, staff: StaffSession, outbox: &Bin) -> Reply {
    let Some(org_id) = cx.param("org") else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let invoice = cx.param("invoice").unwrap_or_default();
    let attempt = uuid::Uuid::now_v7().to_string();
    let Ok(sk) = scoped(&org_id, &staff.user_id, "/v1/invoices/resend", &attempt) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    crate::mail::send_invoice(&org_id, &invoice).await;
    let _ = outbox.put(sk.storage_key(), invoice.as_bytes()).await;
    Reply::status(Code::ACCEPTED).header("X-Attempt-Id", &attempt)
}
