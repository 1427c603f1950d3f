use std::future::Future;

use relay::cache::Cache;
use relay::http::HeaderMap;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, Serialize, Clone)]
pub struct ProfilePatch {
    pub display_name: Option<String>,
    pub avatar_url: Option<String>,
}

async fn memoize<T, F>(cache: &Cache, slot: &str, ttl_secs: u64, work: F) -> anyhow::Result<T>
where
    T: Serialize + DeserializeOwned,
    F: Future<Output = anyhow::Result<T>>,
{
    if let Some(raw) = cache.get(slot).await? {
        return Ok(serde_json::from_slice(&raw)?);
    }
    let value = work.await?;
    cache.set(slot, &serde_json::to_vec(&value)?, ttl_secs).await?;
    Ok(value)
}

pub struct Profiles {
    cache: Cache,
    users: users::Client,
}

impl Profiles {
    pub async fn patch(&self, tenant_id: &str, user_id: &str, headers: &HeaderMap, patch: ProfilePatch) -> anyhow::Result<users::Profile> {
        let idem = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 Idempotency-Key required"))?;
        let slot = serde_json::to_string(&(tenant_id, user_id, idem))?;
        memoize(&self.cache, &slot, 86_400, self.users.patch(tenant_id, user_id, patch.clone())).await
    }

    pub async fn get(&self, tenant_id: &str, user_id: &str) -> anyhow::Result<users::Profile> {
        let slot = format!("user:{}:profile", user_id);
        memoize(&self.cache, &slot, 300, self.users.fetch(tenant_id, user_id)).await
    }
}
