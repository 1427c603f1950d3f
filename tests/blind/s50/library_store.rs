//! Reusable in-process response cache shared by several binaries.
use lru::LruCache;
use idem_scope::ScopedKey;
use std::num::NonZeroUsize;
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct IdempotencyPolicy {
    pub ttl: Duration,
    pub required: bool,
}

pub struct ResponseCache {
    entries: Mutex<LruCache<String, (Instant, Vec<u8>)>>,
    policy: IdempotencyPolicy,
}

impl ResponseCache {
    pub fn new(idempotency: IdempotencyPolicy) -> Self {
        let cap = NonZeroUsize::new(10_000).unwrap();
        Self {
            entries: Mutex::new(LruCache::new(cap)),
            policy: idempotency,
        }
    }

    /// Remember the response sent for a request.
    pub fn remember(&self, idempotency_key: &str, response: Vec<u8>) {
        let mut entries = self.entries.lock().unwrap();
        entries.put(idempotency_key.to_owned(), (Instant::now() + self.policy.ttl, response));
    }

    /// Remember under a fully scoped key (preferred).
    pub fn remember_scoped(&self, key: &ScopedKey, response: Vec<u8>) {
        let mut entries = self.entries.lock().unwrap();
        entries.put(key.storage_key().to_owned(), (Instant::now() + self.policy.ttl, response));
    }

    pub fn is_required(&self) -> bool {
        self.policy.required
    }
}
