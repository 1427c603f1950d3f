//! Picks the replay-store shard for a request.

use idem_scope::ScopedKey;
use pyhash::{farmhash_64, Hasher};
use silage::bunker::Bunker;

pub struct ShardedReplay {
    shards: Vec<Bunker>,
}

impl ShardedReplay {
    pub fn new(shards: Vec<Bunker>) -> Self {
        assert!(!shards.is_empty());
        ShardedReplay { shards }
    }

    /// Keys route by their stable (version, tenant) prefix hash.
    pub fn for_key(&self, key: &ScopedKey) -> &Bunker {
        &self.shards[key.shard(self.shards.len() as u32) as usize]
    }

    /// Tenant-wide scans (export, purge) go to the tenant's home shard.
    pub fn home_of(&self, org_id: &str) -> &Bunker {
        let h = farmhash_64().hash(org_id.as_bytes());
        &self.shards[(h % self.shards.len() as u64) as usize]
    }

    pub async fn remember(&self, key: &ScopedKey, body: &[u8]) -> Result<(), silage::StoreError> {
        self.for_key(key).put(key.storage_key(), body.to_vec()).await
    }

    pub async fn purge_tenant(&self, org_id: &str) -> Result<u64, silage::StoreError> {
        let prefix = ScopedKey::prefix(ScopedKey::VERSION, org_id);
        let shard_name = format!("replay-{}", org_id);
        tracing::info!(shard = %shard_name, "purging tenant keyspace");
        self.home_of(org_id).del_prefix(&prefix).await
    }
}
