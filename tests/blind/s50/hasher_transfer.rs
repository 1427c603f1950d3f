//! Inter-account transfers; the shard for a tenant is chosen with the std hasher.
use idem_scope::scoped;
use serde::Deserialize;
use std::collections::hash_map::DefaultHasher;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::RwLock;

#[derive(Deserialize, Hash)]
pub struct TransferInput {
    pub from: String,
    pub to: String,
    pub cents: u64,
}

pub struct Shards {
    stores: Vec<RwLock<BTreeMap<String, String>>>,
}

impl Shards {
    fn for_tenant(&self, tenant_id: &str) -> &RwLock<BTreeMap<String, String>> {
        let mut h = DefaultHasher::new();
        tenant_id.hash(&mut h);
        &self.stores[(h.finish() % self.stores.len() as u64) as usize]
    }

    pub fn transfer(&self, tenant_id: &str, caller_id: &str, body: &[u8]) -> Result<String, String> {
        let input: TransferInput = serde_json::from_slice(body).map_err(|e| e.to_string())?;
        let mut h = DefaultHasher::new();
        input.hash(&mut h);
        let dedup = scoped(tenant_id, caller_id, "transfers", &format!("{:016x}", h.finish())).map_err(|e| e.to_string())?;

        let shard = self.for_tenant(tenant_id);
        if let Some(prev) = shard.read().unwrap().get(dedup.storage_key()) {
            return Ok(prev.clone());
        }
        let reply = format!("{{\"moved\":{}}}", input.cents);
        shard.write().unwrap().insert(dedup.storage_key().to_owned(), reply.clone());
        Ok(reply)
    }
}
