//! Outcome bookkeeping for the nightly reconciliation library.
//!
//! The embedding service decides what the keys are; this module only
//! reads and writes outcomes.

use idem_scope::{scoped, ScopeError};
use skerry::stash::{BlockingStash, StashError};

/// Expected shape of the embedding service's outcome table.
pub const OUTCOME_TABLE_DDL: &str = "CREATE TABLE reconcile_dedup (
    tenant_id    VARCHAR(64)  NOT NULL,
    user_id      VARCHAR(64)  NOT NULL,
    operation    VARCHAR(64)  NOT NULL,
    idem_key     VARCHAR(255) NOT NULL,
    outcome      BLOB,
    CONSTRAINT reconcile_dedup_pk PRIMARY KEY (tenant_id, user_id, operation, idem_key)
)";

#[derive(Debug)]
pub enum OutcomeError {
    Scope(ScopeError),
    Stash(StashError),
}

impl From<ScopeError> for OutcomeError {
    fn from(e: ScopeError) -> Self {
        OutcomeError::Scope(e)
    }
}

impl From<StashError> for OutcomeError {
    fn from(e: StashError) -> Self {
        OutcomeError::Stash(e)
    }
}

pub fn remember_outcome(stash: &BlockingStash, idempotency_key: &str, outcome: &[u8]) -> Result<(), OutcomeError> {
    stash.put(idempotency_key, outcome)?;
    Ok(())
}

pub fn recall_outcome(
    stash: &BlockingStash,
    tenant_id: &str,
    user_id: &str,
    route: &str,
    client_key: &str,
) -> Result<Option<Vec<u8>>, OutcomeError> {
    let idempotency_key = scoped(tenant_id, user_id, route, client_key)?;
    Ok(stash.get(idempotency_key.storage_key())?)
}

pub fn outcome_count(stash: &BlockingStash, tenant_id: &str) -> Result<usize, OutcomeError> {
    let prefix = format!("v1\0{tenant_id}\0");
    Ok(stash.count_prefix(&prefix)?)
}
