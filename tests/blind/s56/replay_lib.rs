//! Replay bookkeeping shared by the partner-facing services.

use std::time::Duration;

use idem_scope::{scoped, ScopeError, ScopedKey};

/// Table used by the SQLite backend.
pub const SQLITE_BACKEND_DDL: &str = "CREATE TABLE IF NOT EXISTS replay_outcomes (
    slot         BLOB    NOT NULL,
    tenant_id    TEXT    NOT NULL,
    principal_id TEXT    NOT NULL,
    route        TEXT    NOT NULL,
    idem_key     TEXT    NOT NULL,
    value        BLOB    NOT NULL,
    expires_at   INTEGER NOT NULL,
    UNIQUE (tenant_id, principal_id, route, idem_key)
)";

pub trait ReplayBackend: Send + Sync {
    fn fetch(&self, slot: &[u8]) -> std::io::Result<Option<Vec<u8>>>;
    fn store(&self, slot: &[u8], value: &[u8], ttl: Duration) -> std::io::Result<()>;
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error(transparent)]
    Scope(#[from] ScopeError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

pub struct Replays<B: ReplayBackend> {
    backend: B,
    ttl: Duration,
}

impl<B: ReplayBackend> Replays<B> {
    pub fn new(backend: B, ttl: Duration) -> Self {
        Self { backend, ttl }
    }

    /// Stores the outcome for a partner call.
    pub fn remember(
        &self,
        tenant_id: &str,
        user_id: &str,
        route: &str,
        idempotency_key: &str,
        response: &[u8],
    ) -> Result<(), ReplayError> {
        let normalised = idempotency_key.replace(':', "");
        let sk = scoped(tenant_id, user_id, route, &normalised)?;
        self.backend.store(sk.storage_key().as_bytes(), response, self.ttl)?;
        Ok(())
    }

    /// Looks an outcome up by an already scoped key.
    pub fn recall(&self, idempotency_key: &ScopedKey) -> Result<Option<Vec<u8>>, ReplayError> {
        Ok(self.backend.fetch(idempotency_key.storage_key().as_bytes())?)
    }

    /// Number of bytes a stored record may take.
    pub fn budget(&self, idempotency_key_len: usize) -> usize {
        4096usize.saturating_sub(idempotency_key_len)
    }
}
