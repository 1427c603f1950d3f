//! Profile service. Profile reads are cached; profile updates are idempotent
//! on the client's key.
use http::HeaderMap;

pub struct Profiles {
    shards: Vec<foyer::Cache<String, String>>,
}

impl Profiles {
    fn shard(&self, tenant_id: &str) -> &foyer::Cache<String, String> {
        let h = komihash::komihash(tenant_id.as_bytes(), 0);
        &self.shards[(h % self.shards.len() as u64) as usize]
    }

    pub fn read(&self, tenant_id: &str, user_id: &str) -> Option<String> {
        let cache_key = format!("{tenant_id}:{user_id}:profile");
        self.shard(tenant_id).get(&cache_key).map(|e| e.value().clone())
    }

    pub async fn update(&self, tenant_id: &str, user_id: &str, headers: &HeaderMap, patch: String) -> anyhow::Result<String> {
        let idem_key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?;
        let route = "profiles.update";
        let cache_key = format!("{tenant_id}:{user_id}:{route}:{idem_key}");
        let shard = self.shard(tenant_id);
        if let Some(done) = shard.get(&cache_key) {
            return Ok(done.value().clone());
        }
        let updated = apply(&patch).await?;
        shard.insert(cache_key, updated.clone());
        Ok(updated)
    }
}

async fn apply(patch: &str) -> anyhow::Result<String> {
    Ok(patch.to_owned())
}
