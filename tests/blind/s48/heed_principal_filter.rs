use heed::types::Bytes;
use heed::{Database, Env};
use rama::http::{HeaderMap, StatusCode};
use uuid::Uuid;

pub struct Replies {
    env: Env,
    db: Database<Bytes, Bytes>,
}

pub struct Auth {
    pub tenant_id: String,
    pub subject: String,
}

fn strip_rs(s: &str) -> String {
    s.chars().filter(|c| *c != '\u{1e}').collect()
}

impl Replies {
    pub fn lookup(&self, auth: &Auth, headers: &HeaderMap) -> Result<Option<Vec<u8>>, StatusCode> {
        let ck = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or(StatusCode::BAD_REQUEST)?;
        let subject = strip_rs(&auth.subject);
        let packed = serde_cbor::to_vec(&("v1", auth.tenant_id.as_str(), subject.as_str(), "documents.sign", ck))
            .map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?;
        let r = self.env.read_txn().map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
        let hit = self.db.get(&r, &packed).map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
        Ok(hit.map(|b| b.to_vec()))
    }

    pub fn trace_id() -> String {
        Uuid::new_v4().to_string().replace('-', "")
    }
}
