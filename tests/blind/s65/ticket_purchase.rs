use std::borrow::Cow;
use std::sync::Arc;

use idem_scope::scoped;
use kestrel::extract::{FromRequest, Head};
use kestrel::{Outcome, Status};
use tessera::kv::Kv;

use crate::box_office::{BoxOffice, Seat};

#[derive(Clone)]
pub struct Principal(Cow<'static, str>);

impl Principal {
    pub const ANONYMOUS: Principal = Principal(Cow::Borrowed("anonymous"));

    pub fn member(id: &str) -> Self {
        Principal(Cow::Owned(format!("m-{id}")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

pub struct PurchaseKey(String);

impl FromRequest for PurchaseKey {
    type Rejection = Status;

    fn from_request(head: &Head) -> Result<Self, Status> {
        head.header_str("Idempotency-Key").map(|k| PurchaseKey(k.to_owned())).ok_or(Status::BAD_REQUEST)
    }
}

pub struct TicketDesk {
    kv: Arc<Kv>,
    office: Arc<BoxOffice>,
}

impl TicketDesk {
    pub async fn buy(&self, head: Head, key: PurchaseKey) -> Outcome {
        let Some(tenant_id) = head.host_tenant() else {
            return Outcome::status(Status::NOT_FOUND);
        };
        let principal = head.session().map(|s| Principal::member(&s.user_id)).unwrap_or(Principal::ANONYMOUS);
        let Ok(scoped_key) = scoped(&tenant_id, principal.as_str(), "buy_ticket", &key.0) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(scoped_key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let seat: Seat = match self.office.reserve(&tenant_id).await {
            Some(s) => s,
            None => return Outcome::status(Status::GONE),
        };
        let Ok(bytes) = kestrel::json::to_vec(&seat) else {
            return Outcome::status(Status::INTERNAL_SERVER_ERROR);
        };
        self.office.commit(&seat).await;
        let _ = self.kv.put(scoped_key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
