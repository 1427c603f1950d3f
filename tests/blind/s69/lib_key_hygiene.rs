//! `voltaic-keys`: key hygiene helpers shared by the gateway and the
//! batch importers. No caller in this crate.

use garner::bin::SyncBin;
use idem_scope::{scoped, ScopeError, ScopedKey};

pub const MAX_KEY: usize = 255;

/// Records an imported row under its scoped key.
pub fn record_import(bin: &SyncBin, org_id: &str, user_id: &str, route: &str, idempotency_key: &str, row: &[u8]) -> Result<(), ScopeError> {
    let cleaned = idempotency_key.replace(':', "");
    let sk = scoped(org_id, user_id, route, &cleaned)?;
    let _ = bin.put(sk.storage_key(), row);
    Ok(())
}

/// Strict variant used by the gateway.
pub fn gateway_key(org_id: &str, user_id: &str, route: &str, idempotency_key: &str) -> Result<ScopedKey, ScopeError> {
    let trimmed = idempotency_key.trim();
    if trimmed.len() > MAX_KEY {
        return Err(ScopeError::TooLong { component: idem_scope::Component::Key, max: MAX_KEY });
    }
    scoped(org_id, user_id, route, trimmed)
}

/// For log lines only.
pub fn redact(idempotency_key: &str) -> String {
    idempotency_key.chars().filter(|c| c.is_ascii_alphanumeric()).take(6).collect()
}
