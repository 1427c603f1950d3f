use std::collections::HashMap;
use std::sync::RwLock;
use std::time::{Duration, Instant};

use rocket::http::Status;
use rocket::request::{FromRequest, Outcome, Request};
use rocket::serde::json::Json;
use rocket::State;

use crate::auth::OrgUser;
use crate::invoices::{InvoiceDraft, InvoiceService, IssuedInvoice};

#[derive(Clone)]
pub struct CachedReply {
    pub body: Vec<u8>,
    stored_at: Instant,
}

pub struct ReplayMemory {
    entries: RwLock<HashMap<(String, String), CachedReply>>,
    ttl: Duration,
}

fn slot(org: &str, key: &str) -> (String, String) {
    (org.to_owned(), key.to_owned())
}

impl ReplayMemory {
    pub fn lookup(&self, org: &str, key: &str) -> Option<CachedReply> {
        let map = self.entries.read().ok()?;
        map.get(&slot(org, key)).filter(|r| r.stored_at.elapsed() < self.ttl).cloned()
    }

    pub fn keep_reply(&self, org: &str, key: &str, body: Vec<u8>) {
        if let Ok(mut map) = self.entries.write() {
            map.insert(slot(org, key), CachedReply { body, stored_at: Instant::now() });
        }
    }
}

pub struct RawIdemKey(String);

#[rocket::async_trait]
impl<'r> FromRequest<'r> for RawIdemKey {
    type Error = ();
    async fn from_request(req: &'r Request<'_>) -> Outcome<Self, ()> {
        req.headers()
            .get_one("idempotency-key")
            .map(|v| Outcome::Success(RawIdemKey(v.to_string())))
            .unwrap_or(Outcome::Error((Status::BadRequest, ())))
    }
}

#[rocket::post("/v1/invoices", data = "<draft>")]
pub async fn issue_invoice(
    user: OrgUser,
    idem: RawIdemKey,
    draft: Json<InvoiceDraft>,
    memory: &State<ReplayMemory>,
    invoices: &State<InvoiceService>,
) -> Result<Vec<u8>, Status> {
    if let Some(hit) = memory.lookup(&user.org_id, &idem.0) {
        return Ok(hit.body);
    }
    let issued: IssuedInvoice = invoices.issue(&user.org_id, &user.user_id, draft.into_inner()).await.map_err(|_| Status::BadGateway)?;
    let body = serde_json::to_vec(&issued).map_err(|_| Status::InternalServerError)?;
    memory.keep_reply(&user.org_id, &idem.0, body.clone());
    Ok(body)
}
