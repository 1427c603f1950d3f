use std::time::Duration;

use idem_scope::{Fingerprint, ScopedKey};
use pyxis::kv::{Shelf, ShelfError};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct CachedResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub fingerprint: Vec<u8>,
}

pub struct ResponseCache {
    shelf: Shelf,
    ttl: Duration,
}

pub enum Lookup {
    Miss,
    Hit(CachedResponse),
    Mismatch,
}

impl ResponseCache {
    pub fn new(shelf: Shelf, ttl: Duration) -> Self {
        Self { shelf, ttl }
    }

    pub async fn replay(&self, idempotency_key: &str, fingerprint: &Fingerprint) -> Result<Lookup, ShelfError> {
        let Some(raw) = self.shelf.get(idempotency_key).await? else {
            return Ok(Lookup::Miss);
        };
        let cached: CachedResponse = serde_json::from_slice(&raw).map_err(ShelfError::decode)?;
        if cached.fingerprint.as_slice() != fingerprint.as_bytes().as_slice() {
            return Ok(Lookup::Mismatch);
        }
        Ok(Lookup::Hit(cached))
    }

    pub async fn save(
        &self,
        key: &ScopedKey,
        fingerprint: &Fingerprint,
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    ) -> Result<(), ShelfError> {
        let record = CachedResponse {
            status,
            headers,
            body,
            fingerprint: fingerprint.as_bytes().to_vec(),
        };
        let encoded = serde_json::to_vec(&record).map_err(ShelfError::encode)?;
        self.shelf.put_with_ttl(key.storage_key(), &encoded, self.ttl).await
    }
}
