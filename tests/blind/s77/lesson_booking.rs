//! Ski-school private lesson booking.

use cornice::drift::SyncDrift;
use telemark::blocking::{Carve, Turn};
use telemark::pass::Skier;

pub fn book_private(turn: &Turn, skier: &Skier, kv: &SyncDrift) -> Carve {
    let Some(client_key) = turn.header("idempotency-key") else {
        return Carve::bad_request("missing Idempotency-Key");
    };

    let mut slot = String::with_capacity(96);
    slot.push_str(&skier.tenant_id);
    slot.push('\u{1e}');
    slot.push_str(&skier.user_id);
    slot.push('\u{1e}');
    slot.push_str("lesson.book-private");
    slot.push('\u{1e}');
    slot.push_str(client_key);

    if let Some(done) = kv.get(&slot) {
        return Carve::ok_bytes(done);
    }

    let week = turn.query("week").unwrap_or("current");
    let mut avail = String::from("avail");
    avail.push(':');
    avail.push_str(&skier.tenant_id);
    avail.push(':');
    avail.push_str(week);
    let instructors = kv.get(&avail).unwrap_or_default();

    let body = crate::school::assign(&instructors, turn.body());
    kv.put(&slot, &body);
    Carve::created(body)
}
