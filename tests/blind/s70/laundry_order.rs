//! Laundry and pressing orders.
use coffer::drawer::Drawer;
use idem_scope::scoped;
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};

pub const GLOBAL_TENANT: &str = "global";

pub async fn order(visit: Visit, member: Member, replays: &Drawer) -> Verdict {
    let Some(key) = visit.header("Idempotency-Key") else {
        return Verdict::status(Status::BadRequest);
    };
    let property: Option<&String> = member.property_org.as_ref();
    let tenant = property.map_or(GLOBAL_TENANT, |t| t.as_str());
    let speed = visit.query("speed").map_or("standard", |s| s);
    let Ok(sk) = scoped(tenant, &member.user_id, "laundry.order", key) else {
        return Verdict::status(Status::BadRequest);
    };
    if let Ok(Some(done)) = replays.get(sk.storage_key()).await {
        return Verdict::replayed(done);
    }
    let order = crate::laundry::book(tenant, &member.user_id, speed).await;
    let _ = replays.put(sk.storage_key(), order.as_bytes()).await;
    Verdict::ok(order)
}
