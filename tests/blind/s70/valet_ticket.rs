//! Valet tickets, requested from the lobby tablet or the guest app.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::{Status, Verdict, Visit};

pub async fn retrieve_car(visit: Visit, replays: &Drawer) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::status(Status::BadRequest);
    };
    let session = visit.extension::<crate::auth::TabletSession>();
    let Some(tenant) = session.map(|s| s.tenant_id.as_str()) else {
        return Verdict::status(Status::Unauthorized);
    };
    let principal = session.and_then(|s| s.user_id.as_deref()).unwrap_or("anon");
    let Ok(sk) = scoped(tenant, principal, "valet.retrieve", key) else {
        return Verdict::status(Status::BadRequest);
    };
    let bay = visit.query("bay").unwrap_or("front");
    if let Ok(Some(t)) = replays.get(sk.storage_key()).await {
        return Verdict::replayed(t);
    }
    let ticket = crate::valet::call(tenant, bay).await;
    let _ = replays.put(sk.storage_key(), ticket.as_bytes()).await;
    Verdict::ok(ticket)
}
