//! Housekeeping task creation from the staff app, blocking front end.
use coffer::drawer::SyncDrawer;
use coffer::lease::Leases;
use idem_scope::scoped;
use lantern::sync::{Verdict, Visit};

pub fn create_task(visit: &Visit, idem: &SyncDrawer) -> Verdict {
    let Some(staff) = visit.member() else {
        return Verdict::unauthorized();
    };
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::bad_request("Idempotency-Key required");
    };
    let Ok(sk) = scoped(&staff.tenant_id, &staff.user_id, "housekeeping.create", key) else {
        return Verdict::bad_request("invalid key");
    };
    if idem.reserve(sk.storage_key()).is_err() {
        return Verdict::conflict();
    }
    let room: u32 = match visit.query("room").and_then(|r| r.parse().ok()) {
        Some(r) => r,
        None => return Verdict::bad_request("room"),
    };
    let task = crate::housekeeping::open(&staff.tenant_id, room);
    idem.complete(sk.storage_key(), task.as_bytes());
    Verdict::ok(task)
}

pub fn sweep_rooms(leases: &Leases) -> anyhow::Result<()> {
    let lease = leases.acquire("housekeeping-sweep")?;
    let rooms = crate::housekeeping::dirty_rooms()?;
    for room in rooms {
        crate::housekeeping::assign(room)?;
    }
    lease.finish();
    Ok(())
}
