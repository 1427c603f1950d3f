//! Baby cot and extra bed requests.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::who::{Member, Operator};
use lantern::{Status, Verdict, Visit};

const NOBODY: &str = "nobody";

pub async fn request(visit: Visit, member: Option<Member>, desk: Option<Operator>, replays: &Drawer) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::status(Status::BadRequest);
    };
    let Some(tenant) = member.as_ref().map(|m| m.tenant_id.clone()).or_else(|| desk.as_ref().map(|d| d.tenant_id.clone())) else {
        return Verdict::status(Status::Unauthorized);
    };
    let who = if let Some(m) = member.as_ref() { m.user_id.clone() } else {
        NOBODY.to_string()
    };
    let Ok(sk) = scoped(&tenant, &who, "cot.request", key) else {
        return Verdict::status(Status::BadRequest);
    };
    let _ = replays.put(sk.storage_key(), b"queued").await;
    Verdict::status(Status::Accepted)
}
