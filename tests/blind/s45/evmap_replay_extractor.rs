//! Custom router with typed extractors; replay results are published through evmap.

use std::sync::Mutex;

use idem_scope::scoped;

pub struct RawReq {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

pub trait FromRequest: Sized {
    type Rejection;
    fn from_request(req: &RawReq) -> Result<Self, Self::Rejection>;
}

/// Client-supplied replay token.
pub struct ReplayToken(pub String);

impl FromRequest for ReplayToken {
    type Rejection = (u16, &'static str);
    fn from_request(req: &RawReq) -> Result<Self, Self::Rejection> {
        req.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key"))
            .map(|(_, v)| ReplayToken(v.clone()))
            .ok_or((400, "Idempotency-Key required"))
    }
}

pub struct Tenant {
    pub tenant_id: String,
    pub user_id: String,
}

pub struct ReplayBoard {
    reader: evmap::ReadHandle<String, String>,
    writer: Mutex<evmap::WriteHandle<String, String>>,
}

impl ReplayBoard {
    pub fn lookup_shipment(&self, token: ReplayToken) -> Option<String> {
        self.reader.get(&token.0).and_then(|vals| vals.get_one().cloned())
    }

    pub fn publish_shipment(&self, tenant: &Tenant, token: ReplayToken, shipment_id: String) {
        let key = scoped(&tenant.tenant_id, &tenant.user_id, "shipments.create", &token.0).expect("validated by the extractor");
        let mut w = self.writer.lock().unwrap();
        w.insert(key.storage_key().to_owned(), shipment_id);
        w.refresh();
    }
}
