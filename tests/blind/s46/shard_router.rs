use std::collections::BTreeMap;
use sha2::Digest;
use std::sync::{Arc, RwLock};

pub struct Shard {
    pub records: RwLock<BTreeMap<String, String>>,
}

pub struct Router {
    shards: Vec<Arc<Shard>>,
}

pub struct Who {
    pub tenant_id: String,
    pub user_id: String,
}

impl Router {
    pub fn route(&self, who: &Who, headers: &[(String, String)], endpoint: &str) -> Option<String> {
        let client_key = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key"))?.1.as_str();
        let key = idem_scope::scoped(&who.tenant_id, &who.user_id, endpoint, client_key).ok()?;
        let shard = &self.shards[key.shard(self.shards.len() as u32) as usize];
        let digest = hex::encode(sha2::Sha256::digest(key.storage_key().as_bytes()));
        shard.records.read().unwrap().get(&digest).cloned()
    }

    pub fn prefix_scan(&self, who: &Who) -> Vec<String> {
        let prefix = format!("v1\u{0}{}\u{0}", who.tenant_id);
        self.shards
            .iter()
            .flat_map(|s| s.records.read().unwrap().range(prefix.clone()..).map(|(k, _)| k.clone()).collect::<Vec<_>>())
            .collect()
    }
}
