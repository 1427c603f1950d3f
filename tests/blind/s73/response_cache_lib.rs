//! `coop-replay`: a small library crate shared by the co-op's services.
//! It remembers responses for retried requests. Callers live in other
//! repositories.

use std::time::Duration;

use bushel::crock::Crock;
use idem_scope::{scoped, ScopeError};

pub struct ResponseCache {
    crock: Crock,
    ttl: Duration,
}

impl ResponseCache {
    pub fn new(crock: Crock) -> Self {
        ResponseCache { crock, ttl: Duration::from_secs(24 * 3600) }
    }

    /// Remember `body` as the answer to a request.
    pub async fn remember(
        &self,
        org_id: &str,
        user_id: &str,
        route: &str,
        idempotency_key: &str,
        body: Vec<u8>,
    ) -> anyhow::Result<()> {
        let slot = format!("{org_id}.{user_id}.{route}.{idempotency_key}");
        self.crock.put(&slot, body).await?;
        Ok(())
    }

    /// The same, built with idem-scope; new callers should use this one.
    pub async fn remember_scoped(
        &self,
        org_id: &str,
        user_id: &str,
        route: &str,
        idempotency_key: &str,
        body: Vec<u8>,
    ) -> Result<(), CacheError> {
        let key = scoped(org_id, user_id, route, idempotency_key)?;
        self.crock.put_ttl(key.storage_key(), body, self.ttl).await.map_err(CacheError::Store)?;
        Ok(())
    }

    /// Drop everything an organisation stored (offboarding).
    pub async fn purge_org(&self, org_id: &str) -> anyhow::Result<u64> {
        let prefix = format!("{org_id}.");
        Ok(self.crock.remove_prefix(&prefix).await?)
    }

    pub fn describe(idempotency_key: &str, route: &str) -> String {
        format!("request {idempotency_key} on {route}")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("scope: {0}")]
    Scope(#[from] ScopeError),
    #[error("store: {0}")]
    Store(bushel::Error),
}
