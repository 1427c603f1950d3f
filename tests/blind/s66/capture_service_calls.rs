use std::sync::Arc;

use aliri::jwt::{self, CoreValidator};
use aliri::Jwks;
use idem_scope::{scoped, Problem, ScopedKey};
use lintel::{Answer, Call, Code, State};
use skerry::stash::Stash;

use crate::acquiring::{Acquirer, CaptureOrder};
use crate::auth::TenantClaims;

#[derive(Clone)]
pub struct CaptureState {
    pub stash: Arc<Stash>,
    pub acquirer: Arc<Acquirer>,
    pub jwks: Arc<Jwks>,
    pub validator: Arc<CoreValidator>,
}

struct ServiceClaims {
    tenant_id: String,
    sub: String,
}

fn service_claims(st: &CaptureState, call: &Call) -> Option<ServiceClaims> {
    let bearer = call.header("Authorization")?.strip_prefix("Bearer ")?;
    let token = jwt::Jwt::from(bearer);
    let claims: jwt::BasicClaimsWithPayload<TenantClaims> =
        token.verify(&st.jwks, &st.validator).ok()?.into_claims();
    Some(ServiceClaims { tenant_id: claims.payload.tenant_id, sub: claims.sub()?.to_string() })
}

fn client_key(call: &Call) -> Result<&str, Problem> {
    let key = call.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    if key.contains(['\0', ':', '|']) {
        return Err(Problem::invalid_key("separator characters are not allowed"));
    }
    Ok(key)
}

/// Captures called by internal services on behalf of a tenant.
pub async fn capture(st: State<CaptureState>, call: Call) -> Answer {
    let Some(svc) = service_claims(&st, &call) else {
        return Answer::status(Code::UNAUTHORIZED);
    };
    let key = match client_key(&call) {
        Ok(k) => k,
        Err(p) => return Answer::problem(p),
    };
    let slot: ScopedKey = match scoped(&svc.tenant_id, "default", "capture", key) {
        Ok(k) => k,
        Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
    };
    run_capture(&st, &svc.tenant_id, &slot, &call).await
}

/// Voids issued by the same services; keyed per calling service.
pub async fn void(st: State<CaptureState>, call: Call) -> Answer {
    let Some(svc) = service_claims(&st, &call) else {
        return Answer::status(Code::UNAUTHORIZED);
    };
    let key = match client_key(&call) {
        Ok(k) => k,
        Err(p) => return Answer::problem(p),
    };
    let slot = match scoped(&svc.tenant_id, &svc.sub, "capture_void", key) {
        Ok(k) => k,
        Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
    };
    run_capture(&st, &svc.tenant_id, &slot, &call).await
}

async fn run_capture(st: &CaptureState, tenant_id: &str, slot: &ScopedKey, call: &Call) -> Answer {
    if let Ok(Some(prev)) = st.stash.get(slot.storage_key()).await {
        return Answer::bytes(Code::OK, prev);
    }
    let Ok(order) = call.json::<CaptureOrder>() else {
        return Answer::status(Code::BAD_REQUEST);
    };
    match st.acquirer.execute(tenant_id, order).await {
        Ok(body) => {
            let _ = st.stash.put(slot.storage_key(), &body).await;
            Answer::bytes(Code::OK, body)
        }
        Err(e) => Answer::text(Code::BAD_GATEWAY, &e.to_string()),
    }
}
