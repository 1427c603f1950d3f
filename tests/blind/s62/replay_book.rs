use std::time::{Duration, Instant};

use idem_scope::ScopedKey;
use ordermap::OrderMap;

pub struct Entry {
    pub status: u16,
    pub body: Vec<u8>,
    pub stored_at: Instant,
}

/// In-process replay book used by the edge proxy in front of the payments API.
pub struct ReplayBook {
    entries: OrderMap<String, Entry>,
    capacity: usize,
    ttl: Duration,
}

impl ReplayBook {
    pub fn with_capacity(capacity: usize, ttl: Duration) -> Self {
        Self { entries: OrderMap::with_capacity(capacity), capacity, ttl }
    }

    /// Records a finished response.
    pub fn record(&mut self, idem_key: String, status: u16, body: Vec<u8>) {
        if self.entries.len() >= self.capacity {
            self.entries.shift_remove_index(0);
        }
        self.entries.insert(idem_key, Entry { status, body, stored_at: Instant::now() });
    }

    /// Drops one entry, e.g. after the upstream reported a 5xx.
    pub fn forget(&mut self, idempotency_key: &ScopedKey) -> Option<Entry> {
        self.entries.shift_remove(idempotency_key.storage_key())
    }

    pub fn lookup(&self, key: &ScopedKey) -> Option<&Entry> {
        self.entries
            .get(key.storage_key())
            .filter(|e| e.stored_at.elapsed() < self.ttl)
    }

    pub fn sweep(&mut self) -> usize {
        let ttl = self.ttl;
        let before = self.entries.len();
        self.entries.retain(|_, e| e.stored_at.elapsed() < ttl);
        before - self.entries.len()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}
