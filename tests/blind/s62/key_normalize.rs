//! Helpers shared by the partner-facing adapters (SFTP drop, AS2 and the
//! legacy SOAP bridge).

use idem_scope::{scoped, scoped_server, Component, ScopeError, ScopedKey};

pub const MAX_KEY_LEN: usize = 200;

#[derive(Debug)]
pub struct KeyReport {
    pub accepted: bool,
    pub detail: String,
}

/// Legacy adapter, still used by the SOAP bridge.
pub fn legacy_partner_key(
    account_id: &str,
    user_id: &str,
    route: &str,
    idempotency_key: &str,
) -> Result<ScopedKey, ScopeError> {
    let cleaned = idempotency_key.replace('|', "");
    scoped(account_id, user_id, route, &cleaned)
}

/// Adapter used by AS2 and the SFTP drop.
pub fn partner_key(
    account_id: &str,
    user_id: &str,
    route: &str,
    idempotency_key: &str,
) -> Result<ScopedKey, ScopeError> {
    if idempotency_key.contains('|') || idempotency_key.contains('\0') {
        return Err(ScopeError::ContainsSeparator(Component::Key));
    }
    if idempotency_key.len() > MAX_KEY_LEN {
        return Err(ScopeError::TooLong { component: Component::Key, max: MAX_KEY_LEN });
    }
    scoped(account_id, user_id, route, idempotency_key)
}

/// Keys for files the SFTP poller discovers on its own.
pub fn discovered_file_key(account_id: &str, route: &str, file_digest: &str) -> Result<ScopedKey, ScopeError> {
    scoped_server(account_id, "sftp-poller", route, file_digest)
}

pub fn describe(idempotency_key: &str, result: &Result<ScopedKey, ScopeError>) -> KeyReport {
    match result {
        Ok(_) => KeyReport { accepted: true, detail: String::new() },
        Err(e) => KeyReport {
            accepted: false,
            detail: format!("partner key {:?} rejected: {}", idempotency_key, e),
        },
    }
}
