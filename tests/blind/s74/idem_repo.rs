//! Response repository used by the kiosk firmware bridge (synchronous).

use idem_scope::ScopedKey;
use silage::bunker::BlockingBunker;
use silage::StoreError;

pub struct ResponseRepo {
    kv: BlockingBunker,
}

impl ResponseRepo {
    pub fn open(kv: BlockingBunker) -> Self {
        ResponseRepo { kv }
    }

    /// Stored response for a kiosk request, if any.
    pub fn cached(&self, idem_key: &str) -> Option<Vec<u8>> {
        self.kv.get(idem_key).ok().flatten()
    }

    /// Same lookup for callers that already hold a scoped key.
    pub fn cached_scoped(&self, key: &ScopedKey) -> Option<Vec<u8>> {
        self.kv.get(key.storage_key()).ok().flatten()
    }

    pub fn store_scoped(&self, key: &ScopedKey, body: &[u8]) -> Result<(), StoreError> {
        self.kv.put(key.storage_key(), body.to_vec())
    }

    /// Number of cached responses, for the kiosk health page.
    pub fn len(&self) -> usize {
        self.kv.count_prefix("v1\0").unwrap_or(0)
    }
}
