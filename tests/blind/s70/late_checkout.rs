//! Late checkout requests from the guest app.
use std::collections::HashMap;
use std::sync::Arc;

use idem_scope::scoped;
use lantern::who::Member;
use lantern::{Status, Verdict, Visit};
use tokio::sync::RwLock;

#[derive(Clone, Default)]
pub struct LateCheckout {
    answered: Arc<RwLock<HashMap<String, Vec<u8>>>>,
    offers: Arc<RwLock<HashMap<String, u16>>>,
}

impl LateCheckout {
    pub async fn request(&self, visit: Visit) -> Verdict {
        let Some(key) = visit.header("Idempotency-Key").map(String::from) else {
            return Verdict::status(Status::BadRequest);
        };
        let mut answered = self.answered.write().await;
        let slot = answered.entry(key.clone()).or_insert_with(Vec::new);
        if slot.is_empty() {
            *slot = crate::frontdesk::extend_stay(visit.query("until")).await;
        }
        Verdict::ok(slot.clone())
    }

    pub async fn quote(&self, visit: Visit, member: &Member) -> Verdict {
        let Some(key) = visit.header("Idempotency-Key") else {
            return Verdict::status(Status::BadRequest);
        };
        let Ok(scoped_key) = scoped(&member.tenant_id, &member.user_id, "late_checkout.quote", key) else {
            return Verdict::status(Status::BadRequest);
        };
        let mut offers = self.offers.write().await;
        let price = *offers.entry(scoped_key.storage_key().to_owned()).or_insert(45);
        Verdict::ok(price.to_string()).with_header("Idempotency-Key", key)
    }
}
