use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, ScopedKey};
use larder::pantry::Pantry;

#[derive(Clone)]
pub struct ReplayCache {
    inner: Arc<Pantry>,
    ttl: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("storage: {0}")]
    Storage(#[from] larder::Error),
    #[error("scope: {0}")]
    Scope(#[from] idem_scope::ScopeError),
}

impl ReplayCache {
    pub fn new(inner: Arc<Pantry>) -> Self {
        Self { inner, ttl: Duration::from_secs(24 * 3600) }
    }

    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// Looks up a finished response.
    pub async fn cached(&self, idem_key: &str) -> Result<Option<Vec<u8>>, ReplayError> {
        Ok(self.inner.get(idem_key).await?)
    }

    pub async fn cached_scoped(&self, tenant_id: &str, user_id: &str, route: &str, client_key: &str) -> Result<Option<Vec<u8>>, ReplayError> {
        let key = scoped(tenant_id, user_id, route, client_key)?;
        Ok(self.inner.get(key.storage_key()).await?)
    }

    pub async fn store(&self, key: &ScopedKey, response: &[u8]) -> Result<(), ReplayError> {
        self.inner.put(key.storage_key(), response, self.ttl).await?;
        Ok(())
    }

    pub fn ttl(&self) -> Duration {
        self.ttl
    }
}
