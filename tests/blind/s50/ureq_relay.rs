//! Outbound relay: forwards partner payouts through ureq and records each forward.
use http::HeaderMap;
use std::collections::BTreeMap;
use std::io::Read;
use std::sync::RwLock;

#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    #[error("missing Idempotency-Key")]
    MissingKey,
    #[error("bad header: {0}")]
    Header(#[from] http::header::ToStrError),
    #[error("upstream: {0}")]
    Upstream(#[from] ureq::Error),
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

#[derive(Default)]
pub struct Outbox {
    db: RwLock<BTreeMap<String, Vec<u8>>>,
}

impl Outbox {
    pub fn put(&self, key: &str, value: Vec<u8>) {
        self.db.write().unwrap().insert(key.to_owned(), value);
    }
    pub fn get(&self, key: &str) -> Option<Vec<u8>> {
        self.db.read().unwrap().get(key).cloned()
    }
}

pub struct Relay {
    partner_url: String,
    outbox: Outbox,
}

impl Relay {
    pub fn forward(&self, headers: &HeaderMap, body: &[u8]) -> Result<Vec<u8>, RelayError> {
        let key = headers.get("Idempotency-Key").ok_or(RelayError::MissingKey)?.to_str()?.to_owned();
        let request_id = headers.get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("-");
        log::info!("relaying payout request_id={request_id}");

        let resp = ureq::post(&self.partner_url)
            .set("Idempotency-Key", &key)
            .set("X-Request-Id", request_id)
            .set("Content-Type", "application/json")
            .send_bytes(body)?;
        let mut out = Vec::new();
        resp.into_reader().read_to_end(&mut out)?;
        self.outbox.put(&key, out.clone());
        Ok(out)
    }
}
