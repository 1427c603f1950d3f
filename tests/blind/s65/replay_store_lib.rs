//! Small response cache shared by the edge workers.

use std::time::Duration;

use tessera::kv::BlockingKv;

pub struct ResponseCache {
    kv: BlockingKv,
    ttl: Duration,
}

#[derive(Debug)]
pub enum CacheError {
    Backend(String),
    TooLarge(usize),
}

impl ResponseCache {
    pub fn open(path: &str, ttl: Duration) -> Result<Self, CacheError> {
        let kv = BlockingKv::open(path).map_err(|e| CacheError::Backend(e.to_string()))?;
        Ok(Self { kv, ttl })
    }

    pub fn remember(&self, idem_key: &str, body: &[u8]) -> Result<(), CacheError> {
        if body.len() > 1 << 20 {
            return Err(CacheError::TooLarge(body.len()));
        }
        self.kv
            .put_ttl(idem_key.as_bytes(), body, self.ttl)
            .map_err(|e| CacheError::Backend(e.to_string()))
    }

    pub fn warm(&self, tenant_id: &str, entries: &[(String, Vec<u8>)]) -> Result<usize, CacheError> {
        let mut n = 0;
        for (name, bytes) in entries {
            let slot = format!("warm/{tenant_id}/{name}");
            self.kv.put_ttl(slot.as_bytes(), bytes, self.ttl).map_err(|e| CacheError::Backend(e.to_string()))?;
            n += 1;
        }
        Ok(n)
    }
}
