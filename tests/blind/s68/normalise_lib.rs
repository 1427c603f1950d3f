//! Shared helpers for the replay-cache library used by several edge services.

use cobble::vault::Vault;
use idem_scope::{scoped, ScopeError};

pub struct ReplayCache<'a> {
    vault: &'a Vault,
    route: &'static str,
}

#[derive(Debug)]
pub enum CacheError {
    Scope(ScopeError),
    Store(cobble::Error),
}

impl<'a> ReplayCache<'a> {
    pub fn new(vault: &'a Vault, route: &'static str) -> Self {
        ReplayCache { vault, route }
    }

    pub async fn remember(&self, tenant_id: &str, user_id: &str, idempotency_key: &str, response: &[u8]) -> Result<(), CacheError> {
        let cleaned = idempotency_key.replace('|', "_");
        let sk = scoped(tenant_id, user_id, self.route, &cleaned).map_err(CacheError::Scope)?;
        self.vault.put(sk.storage_key(), response).await.map_err(CacheError::Store)
    }

    pub async fn recall(&self, tenant_id: &str, user_id: &str, idempotency_key: &str) -> Result<Option<Vec<u8>>, CacheError> {
        let sk = scoped(tenant_id, user_id, self.route, idempotency_key).map_err(CacheError::Scope)?;
        self.vault.get(sk.storage_key()).await.map_err(CacheError::Store)
    }

    pub async fn forget_route(&self, tenant_id: &str) -> Result<u64, CacheError> {
        let prefix = format!("{}:{}", tenant_id, self.route);
        self.vault.remove_prefix(&prefix).await.map_err(CacheError::Store)
    }
}

impl std::fmt::Display for CacheError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CacheError::Scope(e) => write!(f, "scope: {e}"),
            CacheError::Store(e) => write!(f, "store: {e}"),
        }
    }
}

impl std::error::Error for CacheError {}
