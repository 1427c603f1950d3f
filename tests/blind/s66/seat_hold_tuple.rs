use std::collections::BTreeMap;
use std::sync::Arc;

use idem_scope::Problem;
use lazy_static::lazy_static;
use lintel::{Answer, Call, Code};
use nanoserde::{DeJson, SerJson};

use crate::box_office::{Inventory, SeatError};

lazy_static! {
    static ref HOLDS: spin::Mutex<BTreeMap<(String, String), Vec<u8>>> = spin::Mutex::new(BTreeMap::new());
}

#[derive(DeJson)]
struct HoldRequest {
    show_id: String,
    seats: u32,
    section: Option<String>,
}

#[derive(SerJson)]
struct HoldReply {
    hold_id: String,
    seats: u32,
    section: String,
}

pub struct SeatHolds {
    inventory: Arc<Inventory>,
}

impl SeatHolds {
    pub async fn hold(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Some(key) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let slot = (who.org_id.clone(), key.to_owned());

        let prior = HOLDS.lock().get(&slot).cloned();
        if let Some(body) = prior {
            return Answer::bytes(Code::OK, body);
        }

        let Ok(req) = HoldRequest::deserialize_json(&String::from_utf8_lossy(call.body())) else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let section = req.section.unwrap_or_else(|| "general".to_owned());
        match self.place(&who.org_id, &req.show_id, &section, req.seats).await {
            Ok(hold_id) => {
                let body = HoldReply { hold_id, seats: req.seats, section }.serialize_json().into_bytes();
                HOLDS.lock().insert(slot, body.clone());
                Answer::bytes(Code::CREATED, body)
            }
            Err(SeatError::SoldOut) => Answer::status(Code::CONFLICT),
            Err(_) => Answer::status(Code::SERVICE_UNAVAILABLE),
        }
    }

    async fn place(&self, org_id: &str, show_id: &str, section: &str, seats: u32) -> Result<String, SeatError> {
        let pending = self.inventory.reserve(show_id, section, seats).await?;
        self.inventory.attach_owner(&pending, org_id).await?;
        let hold_id = self.inventory.commit(pending).await?;
        Ok(hold_id)
    }
}
