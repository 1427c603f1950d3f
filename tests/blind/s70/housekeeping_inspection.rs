//! Room inspections filed by supervisors; the PMS gateway forwards the property org.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::who::Operator;
use lantern::{Status, Verdict, Visit};

pub async fn file(visit: Visit, op: Operator, replays: &Drawer) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::status(Status::BadRequest);
    };
    let Some(org_header) = visit.header("X-Property-Org") else {
        return Verdict::status(Status::BadRequest);
    };
    let org_id = org_header.replacen("|", "", 4);
    if key.contains('|') || key.contains('\0') {
        return Verdict::status(Status::BadRequest);
    }
    let Ok(sk) = scoped(&org_id, &op.user_id, "inspection.file", key) else {
        return Verdict::status(Status::BadRequest);
    };
    let notes = visit.query("notes").unwrap_or("").replacen("|", "/", 16);
    if let Ok(Some(done)) = replays.get(sk.storage_key()).await {
        return Verdict::replayed(done);
    }
    let id = crate::housekeeping::inspect(&org_id, &op, &notes).await;
    let _ = replays.put(sk.storage_key(), id.as_bytes()).await;
    Verdict::ok(id)
}
