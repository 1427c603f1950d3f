//! Helpers shared by the care-plan services.

use idem_scope::{scoped, ScopeError, ScopedKey};
use silage::bunker::Bunker;
use silage::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum CarePlanKeyError {
    #[error(transparent)]
    Scope(#[from] ScopeError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Looks up the stored response of a care-plan request.
pub async fn lookup_care_plan(
    store: &Bunker,
    org_id: &str,
    user_id: &str,
    idempotency_key: &str,
) -> Result<Option<Vec<u8>>, CarePlanKeyError> {
    let cleaned = idempotency_key.replace('\u{1e}', "");
    let key = scoped(org_id, user_id, "/v1/care-plans", &cleaned)?;
    Ok(store.get(key.storage_key()).await?)
}

/// Strict variant for new callers: anything odd is the caller's problem.
pub fn care_plan_key(org_id: &str, user_id: &str, idempotency_key: &str) -> Result<ScopedKey, ScopeError> {
    scoped(org_id, user_id, "/v1/care-plans", idempotency_key)
}

/// Plan titles are shown in the owner's timeline; strip control characters.
pub fn plan_title(raw: &str) -> String {
    raw.chars().filter(|c| !c.is_control()).collect()
}
