use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;

use crate::returns::{Rma, RmaRequest};

pub struct ReturnsApi {
    stash: Arc<Stash>,
    rma: Arc<Rma>,
}

fn strip_record_separators(raw: &str) -> String {
    raw.chars().filter(|c| *c != '\u{1e}').collect()
}

impl ReturnsApi {
    pub async fn open(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let Some(raw) = call.header("Idempotency-Key") else {
            return Answer::problem(Problem::missing_key());
        };
        let key = strip_record_separators(raw);
        let slot = match scoped(&who.tenant_id, &who.user_id, "rma_open", &key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()).await {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(req) = call.json::<RmaRequest>() else {
            return Answer::status(Code::BAD_REQUEST);
        };
        let sku: String = req.sku.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
        match self.rma.open(&who.tenant_id, &req.order_ref, &sku, req.quantity).await {
            Ok(ticket) => {
                let body = ticket.to_json().into_bytes();
                let _ = self.stash.put(slot.storage_key(), &body).await;
                Answer::bytes(Code::CREATED, body)
            }
            Err(e) => Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        }
    }
}
