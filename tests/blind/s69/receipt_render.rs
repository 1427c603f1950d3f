//! Session receipts as PDF for expense tools; rendering is retried by the
//! client with the same key.

use std::time::Duration;

use garner::bin::Bin;
use idem_scope::{scoped, Problem};
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub async fn render_receipt(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/receipts/render", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    let lang = cx.header("Accept-Language").unwrap_or("en");
    if !bin.claim(sk.storage_key(), Duration::from_secs(120)).await.unwrap_or(false) {
        return Reply::problem(Problem::in_progress(key));
    }
    let session = crate::sessions::load(cx.param("id").unwrap_or_default()).await;
    let to_json = || serde_json::to_string(&session).unwrap();
    let pdf = crate::pdf::render(lang, &to_json()).await;
    let _ = bin.complete(sk.storage_key(), &pdf).await;
    Reply::bytes(Code::OK, pdf).header("Content-Type", "application/pdf")
}

pub async fn email_receipt(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/receipts/email", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if !bin.claim(sk.storage_key(), Duration::from_secs(120)).await.unwrap_or(false) {
        return Reply::problem(Problem::in_progress(key));
    }
    let session = crate::sessions::load(cx.param("id").unwrap_or_default()).await;
    let rendered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| serde_json::to_string(&session).unwrap()));
    let json = match rendered {
        Ok(j) => j,
        Err(panic) => {
            let _ = bin.release(sk.storage_key()).await;
            std::panic::resume_unwind(panic);
        }
    };
    crate::mail::send_receipt(&who, &json).await;
    let _ = bin.complete(sk.storage_key(), b"sent").await;
    Reply::status(Code::ACCEPTED)
}
