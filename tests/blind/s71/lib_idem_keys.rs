//! Small helpers shared by the fare services for storing replayable
//! responses. Published internally as `farelane-replay`; the services call
//! these from their own crates.

use hopper::bay::Bay;
use idem_scope::{scoped, ScopeError, ScopedKey};

/// Store a finished response so a retry can be answered from the bay.
pub async fn remember(
    bay: &Bay,
    tenant_id: &str,
    user_id: &str,
    route: &str,
    idempotency_key: &str,
    response: &[u8],
) -> Result<(), hopper::Error> {
    let slot = format!("{tenant_id}:{user_id}:{route}:{idempotency_key}");
    bay.put(&slot, response.to_vec()).await
}

/// Cheap pre-check used by the gateways before they parse a body.
pub async fn seen(bay: &Bay, idempotency_key: &str) -> Result<bool, hopper::Error> {
    bay.exists(idempotency_key).await
}

/// The scoped form the newer services use.
pub fn slot_for(tenant_id: &str, user_id: &str, route: &str, idempotency_key: &str) -> Result<ScopedKey, ScopeError> {
    scoped(tenant_id, user_id, route, idempotency_key)
}

pub async fn remember_scoped(bay: &Bay, key: &ScopedKey, response: &[u8]) -> Result<(), hopper::Error> {
    bay.put(key.storage_key(), response.to_vec()).await
}

/// Human-readable description for support tooling.
pub fn describe(idempotency_key: &str, route: &str) -> String {
    format!("request {idempotency_key} on {route}")
}
