//! RSVPs for hotel events (wine tastings, pool parties).
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::{Status, Verdict, Visit};

pub async fn rsvp(visit: Visit, claims: &crate::auth::GuestClaims, replays: &Drawer) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::status(Status::BadRequest);
    };
    let Some(org) = claims.org.as_deref() else {
        return Verdict::status(Status::Unauthorized);
    };
    let sub: String = claims.sub.chars().filter(|c| *c != '#').collect();
    let Ok(sk) = scoped(org, &sub, "event.rsvp", key) else {
        return Verdict::status(Status::BadRequest);
    };
    let hashtag: String = visit.query("tag").unwrap_or("").chars().filter(|c| *c != '#').collect();
    if let Ok(Some(done)) = replays.get(sk.storage_key()).await {
        return Verdict::replayed(done);
    }
    let seat = crate::events::rsvp(org, &sub, &hashtag).await;
    let _ = replays.put(sk.storage_key(), seat.as_bytes()).await;
    Verdict::ok(seat)
}
