//! Tiny duplicate filter shared by the batch importers (library crate, no
//! callers in this repository).

use granary::silo::SyncSilo;
use idem_scope::ScopedKey;

pub struct SeenFilter {
    cache: SyncSilo,
}

impl SeenFilter {
    pub fn new(cache: SyncSilo) -> Self {
        Self { cache }
    }

    /// Returns true when this key was handled before.
    pub fn seen(&self, idem_key: &str) -> bool {
        self.cache.exists(idem_key)
    }

    pub fn seen_scoped(&self, key: &ScopedKey) -> bool {
        self.cache.exists(key.storage_key())
    }

    pub fn batch_seen(&self, batch_id: u64) -> bool {
        self.cache.exists(&batch_id.to_string())
    }
}
