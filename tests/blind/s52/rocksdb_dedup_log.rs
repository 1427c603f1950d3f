use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderMap, HeaderName, StatusCode};
use rocksdb::DB;

pub const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

pub struct Caller {
    pub tenant_id: u64,
    pub api_key_id: u64,
}

pub struct DedupLog {
    db: Arc<DB>,
}

impl DedupLog {
    pub fn open(path: &str) -> Result<Self, rocksdb::Error> {
        Ok(Self { db: Arc::new(DB::open_default(path)?) })
    }

    fn slot(caller: &Caller, operation: &str, client_key: &[u8]) -> Vec<u8> {
        let mut buf = Vec::with_capacity(24 + operation.len() + client_key.len());
        buf.extend_from_slice(&caller.tenant_id.to_be_bytes());
        buf.extend_from_slice(&caller.api_key_id.to_be_bytes());
        buf.extend_from_slice(operation.as_bytes());
        buf.push(0);
        buf.extend_from_slice(client_key);
        buf
    }

    fn client_key(headers: &HeaderMap) -> Result<&[u8], StatusCode> {
        let v = headers.get(&IDEMPOTENCY_KEY).ok_or(StatusCode::BAD_REQUEST)?;
        if v.is_empty() || v.len() > 255 {
            return Err(StatusCode::BAD_REQUEST);
        }
        Ok(v.as_bytes())
    }

    pub fn replay(&self, caller: &Caller, operation: &str, headers: &HeaderMap) -> Result<Option<Bytes>, StatusCode> {
        let slot = Self::slot(caller, operation, Self::client_key(headers)?);
        self.db
            .get(&slot)
            .map(|hit| hit.map(Bytes::from))
            .map_err(|_| StatusCode::SERVICE_UNAVAILABLE)
    }

    pub fn remember(&self, caller: &Caller, operation: &str, headers: &HeaderMap, body: &[u8]) -> Result<(), StatusCode> {
        let slot = Self::slot(caller, operation, Self::client_key(headers)?);
        self.db.put(&slot, body).map_err(|_| StatusCode::SERVICE_UNAVAILABLE)
    }

    pub fn bump_counter(&self, operation: &str) -> Result<u64, StatusCode> {
        let mut counter_key = b"stats\x00".to_vec();
        counter_key.extend_from_slice(operation.as_bytes());
        let current = self
            .db
            .get(&counter_key)
            .map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?
            .and_then(|raw| raw.try_into().ok().map(u64::from_be_bytes))
            .unwrap_or(0);
        self.db
            .put(&counter_key, (current + 1).to_be_bytes())
            .map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
        Ok(current + 1)
    }
}
