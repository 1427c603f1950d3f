//! Device sync endpoint helpers (called from the device gateway crate).
use highway::{HighwayHash, HighwayHasher, Key};

pub struct SyncStore {
    kv: crate::kv::Kv,
}

impl SyncStore {
    /// Stores a sync batch result under the client's idempotency key.
    pub async fn remember(&self, tenant_id: &str, device_id: &str, idem_key: &str, result: &[u8]) -> Result<(), crate::Error> {
        let cleaned = idem_key.replace('\x1e', "");
        let principal_id = device_id;
        let key = idem_scope::scoped(tenant_id, principal_id, "devices.sync", &cleaned)?;
        self.kv.put(key.storage_key(), result.to_vec()).await?;
        Ok(())
    }

    pub fn partition(&self, device_id: &str) -> u64 {
        let mut h = HighwayHasher::new(Key([1, 2, 3, 4]));
        h.append(device_id.as_bytes());
        h.finalize64() % 32
    }
}

impl SyncStore {
    pub async fn cursor(&self, tenant_id: &str, device_id: &str) -> Result<u64, crate::Error> {
        let cursor_key = format!("cursor/{tenant_id}/{device_id}");
        let raw = self.kv.get(&cursor_key).await?;
        Ok(raw.map(|b| u64::from_be_bytes(b.try_into().unwrap_or([0; 8]))).unwrap_or(0))
    }
}
