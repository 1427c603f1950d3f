//! Gift card issuing on the blocking lantern front end.
use coffer::drawer::SyncDrawer;
use lantern::sync::{Verdict, Visit};

pub fn issue(visit: &Visit, store: &SyncDrawer) -> Verdict {
    let Some(caller) = visit.member() else {
        return Verdict::unauthorized();
    };
    let Some(k) = visit.header("Idempotency-Key") else {
        return Verdict::bad_request("key required");
    };
    let org = &caller.org_id;
    let mut raw: Vec<u8> = Vec::with_capacity(128);
    raw.extend_from_slice(org.as_bytes());
    raw.extend_from_slice(b"\x00");
    raw.extend_from_slice(caller.user_id.as_bytes());
    raw.extend_from_slice(b"\x00giftcard.issue\x00");
    raw.extend_from_slice(k.as_bytes());
    if let Some(card) = store.get(&raw) {
        return Verdict::replayed(card);
    }
    let card = crate::giftcards::mint(org, visit.body());
    store.put(&raw, &card);
    let mut receipt = Vec::new();
    receipt.extend_from_slice(b"issued:");
    receipt.extend_from_slice(k.as_bytes());
    Verdict::ok(receipt)
}
