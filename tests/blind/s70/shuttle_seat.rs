//! Shuttle seat reservations between the airport and the resort.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::{Status, Verdict, Visit};

#[derive(Default, Clone)]
pub struct TenantId(pub String);

pub async fn reserve(visit: Visit, session: &crate::auth::KratosSession, replays: &Drawer) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::status(Status::BadRequest);
    };
    let tenant_id: TenantId = match session.traits.get("org").and_then(|v| v.as_str()) {
        Some(t) => TenantId(t.to_owned()),
        None => Default::default(),
    };
    let user_id = session.identity.id.clone();
    let Ok(sk) = scoped(&tenant_id.0, &user_id, "shuttle.reserve", key) else {
        return Verdict::status(Status::BadRequest);
    };
    let pickup: String = visit.query("pickup").map(String::from).unwrap_or_else(Default::default);
    if let Ok(Some(seat)) = replays.get(sk.storage_key()).await {
        return Verdict::replayed(seat);
    }
    let seat = crate::shuttle::book(&tenant_id.0, &user_id, &pickup).await;
    let _ = replays.put(sk.storage_key(), seat.as_bytes()).await;
    Verdict::ok(seat)
}
