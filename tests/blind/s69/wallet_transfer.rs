//! Peer-to-peer wallet transfers inside a fleet (driver -> driver).

use garner::bin::Bin;
use idem_scope::{scoped, Problem};
use trellis::guard::{Identity, ServiceAccount};
use trellis::{Code, Cx, Reply};

const ROUTE: &str = "/v1/wallet/transfers";

pub async fn transfer(cx: Cx, who: Identity, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let sk = match scoped(&who.org_id, &who.user_id, ROUTE, key) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let tx = crate::wallet::transfer(&who, cx.body_bytes()).await;
    let _ = bin.put(sk.storage_key(), tx.as_bytes()).await;
    Reply::text(Code::CREATED, tx)
}

/// Nightly sweeps are triggered by the treasury service account; the
/// account has no end-user principal, so the slot leaves it blank.
pub async fn sweep(cx: Cx, svc: ServiceAccount, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let sk = match scoped(&svc.org_id, "", "/v1/wallet/sweeps", key) {
        Ok(sk) => sk,
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if bin.exists(sk.storage_key()).await.unwrap_or(false) {
        return Reply::status(Code::OK);
    }
    let swept = crate::wallet::sweep(&svc.org_id).await;
    let _ = bin.put(sk.storage_key(), swept.as_bytes()).await;
    Reply::text(Code::OK, swept)
}
