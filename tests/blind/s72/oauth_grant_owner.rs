//! Token-authenticated device API. Tokens are issued by our oxide-auth
//! server; machine tokens carry no owner.

use granary::silo::Silo;
use idem_scope::scoped;
use oxide_auth::primitives::grant::Grant;
use portcullis::{Call, Reply, Status};

pub const SYSTEM_PRINCIPAL: &str = "system";

pub async fn register_device(silo: &Silo, grant: &Grant, tenant_id: &str, call: Call) -> Reply {
    let principal = grant.extensions.public("owner").flatten().unwrap_or(SYSTEM_PRINCIPAL);
    let scope = grant.scope.iter().next().unwrap_or("read");
    if scope == "read" {
        return Reply::status(Status::Forbidden);
    }
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    let Ok(key) = scoped(tenant_id, principal, "device.register", k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::devices::register(tenant_id, call.body()).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Created, out)
}
