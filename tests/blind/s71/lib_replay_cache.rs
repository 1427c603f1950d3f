//! In-process replay cache for the kiosk gateway. Entries expire after a few
//! minutes; the gateway keeps one cache per process.

use std::sync::Mutex;

use idem_scope::ScopedKey;
use transient_hashmap::TransientHashMap;

pub struct ReplayCache {
    inner: Mutex<TransientHashMap<String, Vec<u8>>>,
}

impl ReplayCache {
    pub fn new(lifetime_secs: u32) -> Self {
        Self { inner: Mutex::new(TransientHashMap::new(lifetime_secs)) }
    }

    /// Returns the stored response for this key, or stores `fresh` and
    /// returns `None` when the key is new.
    pub fn get_or_remember(&self, idem_key: String, fresh: Vec<u8>) -> Option<Vec<u8>> {
        let mut map = self.inner.lock().ok()?;
        map.prune();
        match map.entry(idem_key) {
            std::collections::hash_map::Entry::Occupied(hit) => Some(hit.get().clone()),
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(fresh);
                None
            }
        }
    }

    pub fn lookup_scoped(&self, key: &ScopedKey) -> Option<Vec<u8>> {
        let map = self.inner.lock().ok()?;
        map.get(key.storage_key()).cloned()
    }

    pub fn len(&self) -> usize {
        self.inner.lock().map(|m| m.len()).unwrap_or(0)
    }
}
