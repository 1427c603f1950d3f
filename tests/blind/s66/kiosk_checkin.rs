use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::venues::{CheckIn, Venues};

const SHARED_TENANT: &str = "shared";

pub struct KioskCheckIn {
    stash: Arc<Stash>,
    venues: Arc<Venues>,
}

impl KioskCheckIn {
    pub async fn check_in(&self, call: Call) -> Answer {
        let Some(kiosk) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let tenant_id = match kiosk.venue_tenant.as_deref() {
            Some(t) if !t.is_empty() => t.to_owned(),
            _ => SHARED_TENANT.to_owned(),
        };
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let slot = match scoped(&tenant_id, &kiosk.client_id, "kiosk_checkin", key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };

        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(visit) = call.json::<CheckIn>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let badge_lang = visit.language.as_deref().unwrap_or("en");
        match self.venues.check_in(&tenant_id, &visit, badge_lang).await {
            Ok(badge) => {
                let body = badge.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::CONFLICT, &e.to_string()),
        }
    }
}
