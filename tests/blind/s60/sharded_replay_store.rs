use std::sync::Arc;
use std::time::Duration;

use idem_scope::ScopedKey;
use pyxis::kv::Shelf;
use pyxis::lease::LeaseTable;
use tokio::sync::Mutex;
use tracing::warn;

pub struct ShardedReplays {
    shards: Vec<Shelf>,
    compaction: Arc<Mutex<()>>,
    leases: LeaseTable,
}

impl ShardedReplays {
    fn shard(&self, client_key: &str) -> &Shelf {
        let h = adler::adler32_slice(client_key.as_bytes()) as usize;
        &self.shards[h % self.shards.len()]
    }

    pub async fn load(&self, client_key: &str, key: &ScopedKey) -> Option<Vec<u8>> {
        self.shard(client_key).get(key.storage_key()).await.ok().flatten()
    }

    pub async fn save(&self, client_key: &str, key: &ScopedKey, body: &[u8], ttl: Duration) -> bool {
        self.shard(client_key).put_with_ttl(key.storage_key(), body, ttl).await.is_ok()
    }

    /// Compacts every shard; skipped when a compaction is already running here.
    pub async fn compact_local(&self) -> usize {
        let Ok(_running) = self.compaction.try_lock() else {
            return 0;
        };
        let mut reclaimed = 0;
        for shard in &self.shards {
            match shard.compact().await {
                Ok(n) => reclaimed += n,
                Err(e) => {
                    warn!(error = %e, "shard compaction failed");
                    return reclaimed;
                }
            }
        }
        reclaimed
    }

    /// Cluster-wide expiry sweep under a lease so only one node sweeps.
    pub async fn expire_cluster(&self, node_id: &str) -> anyhow::Result<usize> {
        let lease = self.leases.acquire("replay-expiry", node_id, Duration::from_secs(60)).await?;
        let mut removed = 0;
        for shard in &self.shards {
            removed += shard.expire_older_than(Duration::from_secs(24 * 3600)).await?;
        }
        lease.finish().await?;
        Ok(removed)
    }
}
