//! Minibar consumption reported by in-room sensors, confirmed by the guest app.
use coffer::drawer::Drawer;
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};

pub async fn confirm(visit: Visit, cache: &Drawer) -> Verdict {
    let member = match visit.extension::<Member>() {
        Some(m) => m.clone(),
        None => return Verdict::status(Status::Unauthorized),
    };
    let key = match visit.header("Idempotency-Key") {
        Some(k) => k.to_owned(),
        None => return Verdict::status(Status::BadRequest),
    };
    let tenant = member.tenant_id.clone();
    let user = member.user_id.clone();
    let compose = |k: &str| tenant.to_owned() + ":" + &user + ":minibar.charge:" + k;
    let label = |room: &str| tenant.to_owned() + ":" + room + ":minibar";
    if let Ok(Some(done)) = cache.get(&compose(&key)).await {
        return Verdict::replayed(done);
    }
    let room = visit.query("room").unwrap_or("0").to_string();
    let receipt = crate::minibar::charge(&member, &room).await;
    let _ = cache.put(&compose(&key), &receipt).await;
    crate::metrics::bump(&label(&room));
    Verdict::ok(receipt)
}
