use std::sync::Arc;

use idem_scope::scoped;
use kestrel::extract::{Head, Json};
use kestrel::{Outcome, Status};
use serde::Deserialize;
use tessera::kv::Kv;

use crate::helpdesk::{Desk, Ticket};

#[derive(Deserialize)]
pub struct NewTicket {
    pub subject: String,
    pub body: String,
    pub phone: Option<String>,
}

pub struct TicketApi {
    kv: Arc<Kv>,
    desk: Arc<Desk>,
}

impl TicketApi {
    pub async fn open(&self, head: Head, Json(t): Json<NewTicket>) -> Outcome {
        let Some(who) = head.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        // SSO usernames arrive as "|jdoe|" from the old IdP bridge.
        let user_id = who.user_id.trim_matches('|');
        let phone: Option<String> = t.phone.as_ref().map(|p| p.chars().filter(|c| c.is_ascii_digit() || *c == '+').collect());
        let Some(retry) = head.header_str("Idempotency-Key") else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&who.tenant_id, user_id, "open_ticket", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let ticket: Ticket = self.desk.open(&who.tenant_id, user_id, &t.subject, &t.body, phone.as_deref()).await;
        let bytes = kestrel::json::to_vec(&ticket).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
