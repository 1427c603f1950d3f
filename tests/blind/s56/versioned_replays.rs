use std::sync::Arc;

use bytes::Bytes;
use dashmap::DashMap;

pub const DDL: &str = "
CREATE TABLE replay_v1 (
    tenant_id  VARCHAR(64)  NOT NULL,
    user_id    VARCHAR(64)  NOT NULL,
    version    VARCHAR(8)   NOT NULL,
    idem_key   VARCHAR(255) NOT NULL,
    body       BLOB,
    PRIMARY KEY (tenant_id, user_id, version, idem_key)
)";

const SHARDS: u32 = 16;

type VersionedSlot = (String, String, &'static str, String);

pub struct VersionedReplays {
    shards: Vec<Arc<DashMap<VersionedSlot, Bytes>>>,
}

impl VersionedReplays {
    pub fn new() -> Self {
        Self { shards: (0..SHARDS).map(|_| Arc::new(DashMap::new())).collect() }
    }

    fn shard_for(&self, tenant_id: &str) -> &DashMap<VersionedSlot, Bytes> {
        let idx = farmhash::fingerprint32(tenant_id.as_bytes()) % SHARDS;
        &self.shards[idx as usize]
    }

    pub fn remember(&self, caller: &crate::auth::Caller, headers: &http::HeaderMap, body: Bytes) -> Option<Bytes> {
        let key = headers.get("idempotency-key")?.to_str().ok()?.to_owned();
        let slot: VersionedSlot = (caller.tenant_id.clone(), caller.user_id.clone(), "v1", key);
        let shard = self.shard_for(&caller.tenant_id);
        shard.insert(slot, body)
    }
}
