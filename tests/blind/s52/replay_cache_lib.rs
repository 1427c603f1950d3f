use deadpool_redis::redis::AsyncCommands;
use deadpool_redis::Pool;
use idem_scope::ScopedKey;
use serde::de::DeserializeOwned;
use serde::Serialize;

#[derive(Clone)]
pub struct ReplayCache {
    pool: Pool,
    ttl_secs: u64,
}

impl ReplayCache {
    pub fn new(pool: Pool, ttl_secs: u64) -> Self {
        Self { pool, ttl_secs }
    }

    /// Returns the response stored for an earlier request with this key, if any.
    pub async fn cached_response<T: DeserializeOwned>(&self, idempotency_key: &str) -> anyhow::Result<Option<T>> {
        let mut conn = self.pool.get().await?;
        let raw: Option<String> = conn.get(idempotency_key).await?;
        raw.map(|r| serde_json::from_str(&r)).transpose().map_err(Into::into)
    }

    pub async fn cached_for<T: DeserializeOwned>(
        &self,
        tenant_id: &str,
        user_id: &str,
        route: &str,
        idempotency_key: &str,
    ) -> anyhow::Result<Option<T>> {
        let slot = format!("{tenant_id}\u{1e}{user_id}\u{1e}{route}\u{1e}{idempotency_key}");
        let mut conn = self.pool.get().await?;
        let raw: Option<String> = conn.get(&slot).await?;
        raw.map(|r| serde_json::from_str(&r)).transpose().map_err(Into::into)
    }

    pub async fn store_response<T: Serialize>(&self, key: &ScopedKey, response: &T) -> anyhow::Result<()> {
        let mut conn = self.pool.get().await?;
        let rendered = serde_json::to_string(response)?;
        let _: () = conn.set_ex(key.storage_key(), rendered, self.ttl_secs).await?;
        Ok(())
    }

    pub async fn forget(&self, key: &ScopedKey) -> anyhow::Result<()> {
        let mut conn = self.pool.get().await?;
        let _: () = conn.del(key.storage_key()).await?;
        Ok(())
    }
}
