//! Concierge requests (restaurant bookings, theatre tickets) from partner apps.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::who::MaybeMember;
use lantern::{Status, Verdict, Visit};

pub async fn request(visit: Visit, who: MaybeMember, replays: &Drawer) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key").map(str::to_owned) else {
        return Verdict::status(Status::BadRequest);
    };
    let org = visit.header("X-Property-Org").map(str::to_owned).unwrap_or_default();
    let Some(member) = who.0 else {
        return Verdict::status(Status::Unauthorized);
    };
    let lang = visit.header("Accept-Language").map(str::to_owned).unwrap_or_default();
    let Ok(sk) = scoped(&org, &member.user_id, "concierge.request", &key) else {
        return Verdict::status(Status::BadRequest);
    };
    if let Ok(Some(done)) = replays.get(sk.storage_key()).await {
        return Verdict::replayed(done);
    }
    let ticket = crate::concierge::open(&org, &member, &lang).await;
    let _ = replays.put(sk.storage_key(), ticket.as_bytes()).await;
    Verdict::ok(ticket)
}
