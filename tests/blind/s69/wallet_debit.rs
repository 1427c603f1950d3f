//! Debits a driver's prepaid wallet for an ad-hoc charge at a partner
//! site.

use std::time::Duration;

use garner::bin::Bin;
use idem_scope::{scoped, Problem};
use trellis::guard::Identity;
use trellis::{Code, Cx, Reply};

pub async fn debit(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/wallet/debits", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    match bin.claim(sk.storage_key(), Duration::from_secs(60)).await {
        Ok(true) => {}
        Ok(false) => return Reply::problem(Problem::in_progress(key)),
        Err(_) => return Reply::status(Code::SERVICE_UNAVAILABLE),
    }
    let Some(wallet) = crate::wallet::find(&who.org_id, &who.user_id).await else {
        return Reply::status(Code::NOT_FOUND);
    };
    let debit = crate::wallet::debit(&wallet, cx.body_bytes()).await;
    let _ = bin.complete(sk.storage_key(), debit.as_bytes()).await;
    Reply::text(Code::CREATED, debit)
}

pub async fn credit(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let Ok(sk) = scoped(&who.org_id, &who.user_id, "/v1/wallet/credits", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if !bin.claim(sk.storage_key(), Duration::from_secs(60)).await.unwrap_or(false) {
        return Reply::problem(Problem::in_progress(key));
    }
    let wallet = match crate::wallet::find(&who.org_id, &who.user_id).await {
        Some(w) => w,
        None => {
            let _ = bin.release(sk.storage_key()).await;
            return Reply::status(Code::NOT_FOUND);
        }
    };
    match crate::wallet::credit(&wallet, cx.body_bytes()).await {
        Ok(c) => {
            let _ = bin.complete(sk.storage_key(), c.as_bytes()).await;
            Reply::text(Code::CREATED, c)
        }
        Err(e) => {
            let _ = bin.release(sk.storage_key()).await;
            Reply::text(Code::BAD_GATEWAY, e.to_string())
        }
    }
}
