//! City tours sold through the concierge desk and the guest app.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::who::{MaybeMember, Member};
use lantern::{Status, Verdict, Visit};

pub async fn book(visit: Visit, who: MaybeMember, property: &str, replays: &Drawer) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::status(Status::BadRequest);
    };
    let principal: &str = match who.0.as_ref() {
        Some(Member { user_id, .. }) => user_id,
        None => "guest",
    };
    let Ok(sk) = scoped(property, principal, "tour.book", key) else {
        return Verdict::status(Status::BadRequest);
    };
    let seats: u8 = match visit.query("seats").and_then(|s| s.parse().ok()) {
        Some(n) => n,
        None => 1,
    };
    if let Ok(Some(done)) = replays.get(sk.storage_key()).await {
        return Verdict::replayed(done);
    }
    let booking = crate::tours::book(property, principal, seats).await;
    let _ = replays.put(sk.storage_key(), booking.as_bytes()).await;
    Verdict::ok(booking)
}
