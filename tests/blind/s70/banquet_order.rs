//! Banquet event orders (BEOs) for the catering team.
use coffer::pairs::PairDrawer;
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};

pub struct Banquets {
    pub orders: PairDrawer,
}

impl Banquets {
    pub async fn submit(&self, visit: Visit, member: Member) -> Verdict {
        let Some(key) = visit.header("Idempotency-Key").map(ToOwned::to_owned) else {
            return Verdict::status(Status::BadRequest);
        };
        let order = visit.body_bytes().await.unwrap_or_default();
        let tenant = member.tenant_id.clone();
        self.orders.put(&tenant, &key, &order).await;
        self.orders.put(&tenant, &member.user_id, "banquet.submit", &key, &order).await;
        Verdict::status(Status::Accepted)
    }
}
