//! Posting charges onto a guest folio.
use coffer::drawer::SyncDrawer;
use idem_scope::IdempotencyKey;
use lantern::sync::{Verdict, Visit};
use lantern::who::Member;

pub fn post_charge(visit: &Visit, store: &SyncDrawer) -> Verdict {
    let member: &Member = match visit.member() {
        Some(m) => m,
        None => return Verdict::unauthorized(),
    };
    let key = match visit.header_bytes("Idempotency-Key").map(IdempotencyKey::parse_lenient) {
        Some(Ok(k)) => k,
        _ => return Verdict::bad_request("Idempotency-Key required"),
    };
    let mut slot = String::with_capacity(96);
    slot.push_str(&member.tenant_id);
    slot.push('\u{1f}');
    slot.push_str(&member.user_id);
    slot.push('\u{1f}');
    slot.push_str("folio.post");
    slot.push('\u{1f}');
    slot.push_str(key.as_str());
    if let Some(done) = store.get(&slot) {
        return Verdict::replayed(done);
    }
    let posted = crate::folio::post(visit.body());
    store.put(&slot, &posted);
    let mut note = String::from("posted charge with key ");
    note.push_str(key.as_str());
    crate::folio::remark(&member.tenant_id, &note);
    Verdict::ok(posted)
}
