//! Key layouts kept for the legacy practice-management bridge.
//!
//! The bridge still reads responses written under the old layout, so the old
//! helpers stay until the v2 bridge ships.

use idem_scope::{scoped, ScopeError, ScopedKey};
use silage::bunker::Bunker;
use silage::StoreError;

pub struct LegacyLayout {
    pub prefix: &'static str,
}

impl LegacyLayout {
    pub fn response_key(&self, org_id: &str, user_id: &str, route: &str, idempotency_key: &str) -> String {
        format!("{}:{org_id}:{user_id}:{route}:{idempotency_key}", self.prefix)
    }

    /// Line written to the bridge's audit log.
    pub fn audit_line(&self, org_id: &str, route: &str, idempotency_key: &str) -> String {
        format!("[{}] org={org_id} route={route} key={idempotency_key}", self.prefix)
    }
}

pub async fn remember_legacy(
    store: &Bunker,
    layout: &LegacyLayout,
    org_id: &str,
    user_id: &str,
    route: &str,
    idempotency_key: &str,
    body: &[u8],
) -> Result<(), StoreError> {
    tracing::debug!("{}", layout.audit_line(org_id, route, idempotency_key));
    store.put(&layout.response_key(org_id, user_id, route, idempotency_key), body.to_vec()).await
}

/// The v2 layout: everything goes through idem-scope.
pub fn v2_key(org_id: &str, user_id: &str, route: &str, idempotency_key: &str) -> Result<ScopedKey, ScopeError> {
    scoped(org_id, user_id, route, idempotency_key)
}

pub async fn remember_v2(store: &Bunker, key: &ScopedKey, body: &[u8]) -> Result<(), StoreError> {
    store.put(key.storage_key(), body.to_vec()).await
}
