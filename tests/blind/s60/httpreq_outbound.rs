use std::collections::HashMap;
use std::convert::TryFrom;
use std::sync::RwLock;

use http_req::request::{Method, Request};
use http_req::uri::Uri;

use crate::journal::Journal;

pub struct OutboundMessage {
    pub tenant_id: String,
    pub idem_key: String,
    pub url: String,
    pub body: Vec<u8>,
}

#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error("bad uri: {0}")]
    Uri(String),
    #[error("transport: {0}")]
    Transport(#[from] http_req::error::Error),
}

pub struct Sender {
    sent: RwLock<HashMap<String, u16>>,
    journal: Journal,
}

impl Sender {
    pub fn deliver(&self, msg: &OutboundMessage) -> Result<u16, SendError> {
        if let Some(status) = self.sent.read().ok().and_then(|s| s.get(&msg.idem_key).copied()) {
            return Ok(status);
        }
        let uri = Uri::try_from(msg.url.as_str()).map_err(|e| SendError::Uri(e.to_string()))?;
        let len = msg.body.len().to_string();
        let mut out = Vec::new();
        let rsp = Request::new(&uri)
            .method(Method::POST)
            .header("Content-Type", "application/json")
            .header("Content-Length", &len)
            .header("Idempotency-Key", &msg.idem_key)
            .body(&msg.body)
            .send(&mut out)?;
        let status = u16::from(rsp.status_code());
        self.journal.record(&msg.tenant_id, &msg.url, status);
        Ok(status)
    }

    pub fn mark_sent(&self, tenant_id: &str, user_id: &str, route: &str, msg: &OutboundMessage, status: u16) {
        let key = idem_scope::scoped(tenant_id, user_id, route, &msg.idem_key);
        if let (Ok(key), Ok(mut sent)) = (key, self.sent.write()) {
            sent.insert(key.storage_key().to_owned(), status);
        }
    }
}
