use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, ClaimGuard, Problem};
use lintel::{Answer, Call, Code};
use monocypher::hashing::blake2b;
use rustc_serialize::hex::ToHex;
use skerry::stash::Stash;

use crate::travel::{RebookRequest, TravelDesk};

const LEASE: Duration = Duration::from_secs(120);

pub struct Rebooking {
    stash: Arc<Stash>,
    desk: Arc<TravelDesk>,
}

impl Rebooking {
    pub async fn rebook(&self, call: Call, booking_ref: &str) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let slot = match scoped(&who.tenant_id, &who.user_id, "rebook", &call.header("Idempotency-Key").map(str::to_owned).unwrap_or_else(|| blake2b(call.body())[..16].to_hex())) {
            Ok(k) => k,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };

        match self.stash.claim(slot.storage_key(), LEASE).await {
            Ok(true) => {}
            Ok(false) => return Answer::problem(Problem::in_progress(booking_ref)),
            Err(_) => return Answer::status(Code::SERVICE_UNAVAILABLE),
        }
        let stash = Arc::clone(&self.stash);
        let held = slot.storage_key().to_owned();
        let guard = ClaimGuard::new(move || stash.release_detached(held));

        let Ok(req) = call.json::<RebookRequest>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let itinerary = match self.desk.rebook(&who.tenant_id, booking_ref, &req).await {
            Ok(i) => i,
            Err(e) => return Answer::text(Code::CONFLICT, &e.to_string()),
        };
        let body = itinerary.to_json().into_bytes();
        if self.stash.complete(slot.storage_key(), &body).await.is_err() {
            return Answer::status(Code::SERVICE_UNAVAILABLE);
        }
        guard.complete();
        Answer::bytes(Code::OK, body)
    }
}
