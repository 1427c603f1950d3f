//! Multi-tenant webhook management API. The tenant header is written by a
//! legacy proxy that sometimes appends record separators.

use granary::silo::Silo;
use idem_scope::scoped;
use portcullis::{Call, Reply, Status};

pub async fn create_endpoint(silo: &Silo, call: Call) -> Reply {
    let Some(raw_tenant) = call.header("x-tenant-id") else { return Reply::status(Status::Unauthorized) };
    let tenant_id = raw_tenant.trim_matches(|c: char| c == '\x1e' || c.is_whitespace());
    let Some(user_id) = call.header("x-user-id") else { return Reply::status(Status::Unauthorized) };
    let Some(k) = call.header("Idempotency-Key").map(|v| v.trim_matches('"')) else { return Reply::status(Status::BadRequest) };
    let Ok(key) = scoped(tenant_id, user_id, "endpoints.create", k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::endpoints::create(tenant_id, call.body()).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Created, out)
}
