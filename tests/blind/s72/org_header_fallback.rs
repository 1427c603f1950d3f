//! Internal back-office API. The org comes from a header set by the admin
//! proxy; staff ids come from the proxy's session.

use granary::silo::Silo;
use idem_scope::scoped;
use portcullis::{Call, Reply, Status};

pub async fn adjust_limit(silo: &Silo, call: Call) -> Reply {
    let org: String = if let Some(o) = call.header("x-org-id") {
        o.to_owned()
    } else {
        Default::default()
    };
    let staff: String = if let Some(s) = call.header("x-staff-id") {
        s.to_owned()
    } else {
        return Reply::status(Status::Unauthorized);
    };
    let Some(k) = call.header("Idempotency-Key") else { return Reply::status(Status::BadRequest) };
    let Ok(key) = scoped(&org, &staff, "limits.adjust", k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::limits::adjust(&org, call.body()).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    Reply::bytes(Status::Ok, out)
}
