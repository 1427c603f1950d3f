//! Key helpers shared by the legacy booking services. Library code; the
//! services that call it are in other repositories.

use idem_scope::{scoped, ScopeError, ScopedKey};
use lagoon::tank::SyncTank;

/// Old mobile builds send values like `bk|1234`; the pipe broke the v0
/// layout, so it is normalised here.
pub fn normalise(idempotency_key: &str) -> String {
    idempotency_key.replace('|', "_")
}

pub fn slot_for(org_id: &str, user_id: &str, route: &str, idempotency_key: &str) -> Result<ScopedKey, ScopeError> {
    scoped(org_id, user_id, route, &normalise(idempotency_key))
}

pub fn previous_reply(
    tank: &SyncTank,
    org_id: &str,
    user_id: &str,
    route: &str,
    idempotency_key: &str,
) -> Result<Option<Vec<u8>>, lagoon::Error> {
    let slot = slot_for(org_id, user_id, route, idempotency_key).map_err(lagoon::Error::invalid_key)?;
    tank.get(slot.storage_key())
}

/// Rejects keys that cannot be represented; used by the newer services.
pub fn check(idempotency_key: &str) -> Result<&str, &'static str> {
    if idempotency_key.is_empty() || idempotency_key.len() > 255 {
        return Err("key must be 1-255 characters");
    }
    if idempotency_key.chars().any(|c| c.is_control() || c == '|') {
        return Err("key contains a reserved character");
    }
    Ok(idempotency_key)
}
