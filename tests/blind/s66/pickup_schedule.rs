use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;
use slog::{info, Logger};

use crate::courier::{Courier, PickupWindow};

pub struct PickupApi {
    stash: Arc<Stash>,
    courier: Arc<Courier>,
    log: Logger,
}

impl PickupApi {
    pub async fn schedule(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Some(raw) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let printable = raw.replace('\0', "\\0");
        info!(self.log, "pickup request"; "key" => &printable);
        // Some handheld scanners pad the key with NULs.
        let key = raw.replace('\0', "");
        let slot = match scoped(&who.tenant_id, &who.user_id, "pickup_schedule", &key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(window) = call.json::<PickupWindow>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        match self.courier.book_pickup(&who.tenant_id, &window).await {
            Ok(booking) => {
                let body = booking.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::CONFLICT, &e.to_string()),
        }
    }
}
