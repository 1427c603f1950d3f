//! Tenant resolution from API-gateway claims for the scheduling API.

use granary::silo::Silo;
use idem_scope::{scoped, Problem};
use portcullis::{Call, Reply, Status};

pub const TENANT_NOBODY: &str = "nobody";

pub struct GatewayClaims {
    pub tenant: Option<String>,
    pub sub: String,
}

impl GatewayClaims {
    fn tenant(&self) -> Option<&str> {
        self.tenant.as_deref()
    }
}

pub async fn book_slot(silo: &Silo, claims: &GatewayClaims, call: Call) -> Reply {
    let tenant = match claims.tenant() {
        Some(t) => t,
        None => TENANT_NOBODY,
    };
    let Some(k) = call.header("Idempotency-Key") else { return Reply::problem(Problem::missing_key()) };
    let Ok(key) = scoped(tenant, &claims.sub, "slots.book", k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::slots::book(tenant, call.body()).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Created, out)
}

pub async fn cancel_slot(silo: &Silo, claims: &GatewayClaims, call: Call) -> Reply {
    let tenant = match claims.tenant() {
        Some(t) => t,
        None => return Reply::status(Status::Forbidden),
    };
    let Some(k) = call.header("Idempotency-Key") else { return Reply::problem(Problem::missing_key()) };
    let Ok(key) = scoped(tenant, &claims.sub, "slots.cancel", k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::slots::cancel(tenant, call.body()).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Ok, out)
}
