//! Wake-up call scheduling; the switchboard retries on a busy PBX.
use coffer::drawer::SyncDrawer;
use coffer::hold::Holds;
use idem_scope::scoped;
use lantern::sync::{Verdict, Visit};

pub fn schedule(visit: &Visit, store: &SyncDrawer) -> Verdict {
    let Some(guest) = visit.member() else {
        return Verdict::unauthorized();
    };
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::bad_request("key");
    };
    let Ok(sk) = scoped(&guest.tenant_id, &guest.user_id, "wakeup.schedule", key) else {
        return Verdict::bad_request("key");
    };
    let mut outcome = None;
    for attempt in 0..3 {
        store.acquire(sk.storage_key()).expect("idempotency store reachable");
        match crate::pbx::book(&guest.user_id, visit.query("at")) {
            Ok(slot) => {
                store.complete(sk.storage_key(), slot.as_bytes());
                outcome = Some(slot);
                break;
            }
            Err(crate::pbx::Error::Busy) if attempt < 2 => {
                store.release(sk.storage_key());
                continue;
            }
            Err(_) => break,
        }
    }
    match outcome {
        Some(slot) => Verdict::ok(slot),
        None => Verdict::unavailable(),
    }
}

pub fn schedule_with_hold(visit: &Visit, holds: &Holds) -> Verdict {
    let Some(guest) = visit.member() else {
        return Verdict::unauthorized();
    };
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::bad_request("key");
    };
    let Ok(sk) = scoped(&guest.tenant_id, &guest.user_id, "wakeup.schedule", key) else {
        return Verdict::bad_request("key");
    };
    let hold = match holds.reserve(sk.storage_key()) {
        Ok(h) => h,
        Err(_) => return Verdict::conflict(),
    };
    let slot = match crate::pbx::book(&guest.user_id, visit.query("at")) {
        Ok(s) => s,
        Err(_) => return Verdict::unavailable(),
    };
    hold.complete(slot.as_bytes());
    Verdict::ok(slot)
}
