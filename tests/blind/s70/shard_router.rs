//! Picks the replay shard for a scoped key and caches guest session lookups.
use coffer::drawer::Drawer;
use idem_scope::ScopedKey;
use sha2::{Digest, Sha256};

pub struct Shards {
    pub replays: Vec<Drawer>,
    pub sessions: Drawer,
}

impl Shards {
    pub fn for_key(&self, key: &ScopedKey) -> &Drawer {
        let n = self.replays.len() as u32;
        &self.replays[key.shard(n) as usize]
    }

    pub fn for_tenant(&self, tenant_id: &str) -> &Drawer {
        let d = Sha256::digest(tenant_id.as_bytes());
        &self.replays[(d[0] as usize) % self.replays.len()]
    }

    pub async fn session(&self, token: &str) -> Option<Vec<u8>> {
        let slot = hex::encode(Sha256::digest(token.as_bytes()));
        self.sessions.get(&slot).await.ok().flatten()
    }

    pub async fn replay(&self, key: &ScopedKey) -> Option<Vec<u8>> {
        self.for_key(key).get(key.storage_key()).await.ok().flatten()
    }
}
