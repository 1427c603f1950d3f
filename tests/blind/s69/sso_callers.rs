//! Enterprise SSO: the subject comes from the customer's IdP and may
//! contain arbitrary bytes.

use garner::bin::Bin;
use idem_scope::{scoped, Problem, ScopeError};
use trellis::guard::SsoClaims;
use trellis::{Code, Cx, Reply};

pub async fn sso_provision(cx: Cx, claims: SsoClaims, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let sub: String = claims.sub.chars().filter(|c| *c != '\0').collect();
    let display: String = claims.name.chars().filter(|c| !c.is_control()).collect();
    let Ok(sk) = scoped(&claims.org_id, &sub, "/v1/sso/provision", key) else {
        return Reply::status(Code::BAD_REQUEST);
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let user = crate::users::provision(&claims.org_id, &sub, &display).await;
    let _ = bin.put(sk.storage_key(), user.as_bytes()).await;
    Reply::text(Code::CREATED, user)
}

pub async fn sso_deprovision(cx: Cx, claims: SsoClaims, bin: &Bin) -> Reply {
    let Some(key) = cx.header("Idempotency-Key") else {
        return Reply::problem(Problem::missing_key());
    };
    let sk = match scoped(&claims.org_id, &claims.sub, "/v1/sso/deprovision", key) {
        Ok(sk) => sk,
        Err(ScopeError::ContainsSeparator(c)) => return Reply::problem(Problem::invalid_key(&format!("{c:?} contains a separator"))),
        Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
    };
    if let Ok(Some(prev)) = bin.get(sk.storage_key()).await {
        return Reply::bytes(Code::OK, prev);
    }
    let gone = crate::users::deprovision(&claims.org_id, &claims.sub).await;
    let _ = bin.put(sk.storage_key(), gone.as_bytes()).await;
    Reply::text(Code::OK, gone)
}
