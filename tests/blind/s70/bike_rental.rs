//! Bike rentals at the resort, blocking handler on the lantern sync front end.
use coffer::drawer::SyncDrawer;
use idem_scope::scoped;
use lantern::sync::{Verdict, Visit};

pub fn rent(visit: &Visit, replays: &SyncDrawer) -> Verdict {
    let Some(m) = visit.member() else {
        return Verdict::unauthorized();
    };
    let Some(header) = visit.header("Idempotency-Key") else {
        return Verdict::bad_request("key");
    };
    if header.contains('/') {
        return Verdict::bad_request("key must not contain '/'");
    }
    let mut key = header.to_string();
    key.retain(|c| c != '\0');
    let Ok(sk) = scoped(&m.tenant_id, &m.user_id, "bike.rent", &key) else {
        return Verdict::bad_request("key");
    };
    let mut frame = visit.query("frame").unwrap_or("M").to_string();
    frame.retain(|c| c != '/');
    if let Some(done) = replays.get(sk.storage_key()) {
        return Verdict::replayed(done);
    }
    let rental = crate::bikes::rent(&m, &frame);
    replays.put(sk.storage_key(), rental.as_bytes());
    Verdict::ok(rental)
}
