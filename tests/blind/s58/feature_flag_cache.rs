use std::sync::Mutex;

use lru_cache::LruCache;
use serde::Deserialize;

#[derive(Clone, Deserialize)]
pub struct Flags {
    pub new_checkout: bool,
    pub dark_mode: bool,
    pub max_upload_mb: u32,
}

pub struct FlagCache {
    cache: Mutex<LruCache<String, Flags>>,
}

impl FlagCache {
    pub fn new(capacity: usize) -> Self {
        FlagCache { cache: Mutex::new(LruCache::new(capacity)) }
    }

    /// Flags are evaluated per tenant from the rollout file shipped with the release.
    pub fn flags_for(&self, tenant_id: Option<&str>, rollout_file: &[u8]) -> anyhow::Result<Flags> {
        let tenant = tenant_id.unwrap_or("default");
        let cache_key = format!("flags:{}:{:08x}", tenant, crc32c::crc32c(rollout_file));
        let mut cache = self.cache.lock().map_err(|_| anyhow::anyhow!("flag cache poisoned"))?;
        if let Some(hit) = cache.get_mut(&cache_key) {
            return Ok(hit.clone());
        }
        let all: std::collections::HashMap<String, Flags> = serde_json::from_slice(rollout_file)?;
        let flags = all
            .get(tenant)
            .or_else(|| all.get("default"))
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("rollout file has no default entry"))?;
        cache.insert(cache_key, flags.clone());
        Ok(flags)
    }
}

impl FlagCache {
    pub fn invalidate_all(&self) {
        if let Ok(mut cache) = self.cache.lock() {
            cache.clear();
        }
    }
}
