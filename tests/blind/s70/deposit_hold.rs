//! Card pre-authorisation holds for arrival deposits.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};

pub async fn place_hold(visit: Visit, holds: &Drawer, member: Member) -> Verdict {
    let idem = match visit.header("x-idempotency-key") {
        Some(v) if !v.is_empty() => v.to_string(),
        _ => return Verdict::status(Status::BadRequest),
    };
    let op = "deposit.hold";
    let record_key = format!(
        "{tenant}|{who}|{op}|{key}",
        tenant = member.tenant_id,
        who = member.user_id,
        key = idem,
    );
    if holds.exists(&record_key).await.unwrap_or(false) {
        return Verdict::status(Status::Conflict);
    }
    let amount = visit.query("amount").unwrap_or("0");
    holds.put(&record_key, amount.as_bytes()).await.ok();
    Verdict::status(Status::Accepted)
}

pub async fn release_hold(visit: Visit, holds: &Drawer, member: Member) -> Verdict {
    let Some(idem) = visit.header("x-idempotency-key") else {
        return Verdict::status(Status::BadRequest);
    };
    let key = match scoped(&member.tenant_id, &member.user_id, "deposit.release", idem) {
        Ok(k) => k,
        Err(e) => return Verdict::bad_request(e.to_string()),
    };
    let audit = format!("hold release requested by {} for {}", member.user_id, idem);
    crate::audit::note(&audit);
    holds.put(key.storage_key(), b"released").await.ok();
    Verdict::status(Status::Accepted)
}
