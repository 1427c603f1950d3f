//! Shared handler for the v3 mutation routes; the route component comes from
//! the matched pattern.

use granary::silo::Silo;
use idem_scope::scoped;
use portcullis::who::Member;
use portcullis::{Call, Reply, Status};

pub async fn mutate(silo: &Silo, m: &Member, call: Call) -> Reply {
    let route = call.route().trim_end_matches('/');
    let Some(k) = call.header("Idempotency-Key").map(str::trim) else { return Reply::status(Status::BadRequest) };
    let Ok(key) = scoped(&m.org_id, &m.user_id, route, k) else { return Reply::status(Status::BadRequest) };
    if let Ok(Some(prev)) = silo.get(key.storage_key()).await {
        return Reply::bytes(Status::Ok, prev);
    }
    let out = crate::mutations::apply(route, call.body()).await;
    let _ = silo.put(key.storage_key(), out.clone()).await;
    let path_for_log = call.path().trim_end_matches('/');
    tracing::info!(path = path_for_log, "mutation applied");
    Reply::bytes(Status::Ok, out)
}
