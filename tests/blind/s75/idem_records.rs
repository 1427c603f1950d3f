//! Record book shared by the partner gateway and the kiosk bridge. New callers
//! pass a scoped key; the legacy path for old kiosk firmware passes the key
//! the kiosk sent.
use std::time::Duration;

use idem_scope::ScopedKey;
use loft::batten::Batten;
use loft::LoftError;

pub struct RecordBook {
    batten: Batten,
    keep: Duration,
}

impl RecordBook {
    pub fn new(batten: Batten, keep: Duration) -> Self {
        Self { batten, keep }
    }

    pub async fn remember_scoped(&self, key: &ScopedKey, response: &[u8]) -> Result<(), LoftError> {
        self.batten.put(key.storage_key(), response.to_vec(), self.keep).await
    }

    pub async fn recall_scoped(&self, key: &ScopedKey) -> Result<Option<Vec<u8>>, LoftError> {
        self.batten.get(key.storage_key()).await
    }

    /// Legacy path kept for kiosks on firmware older than 4.2.
    pub async fn remember_legacy(&self, idempotency_key: &str, response: &[u8]) -> Result<(), LoftError> {
        self.batten.put(idempotency_key, response.to_vec(), self.keep).await
    }

    /// Number of records a venue group holds, for the ops dashboard.
    pub async fn count_for(&self, tenant_id: &str) -> Result<u64, LoftError> {
        self.batten.count_prefix(&format!("{}\0{}\0", ScopedKey::VERSION, tenant_id)).await
    }
}
