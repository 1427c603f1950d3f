//! Shared scope policy for the co-op services: how key components are
//! validated, how keys are spread over the replay shards, and how the
//! composite columns are bound.

use bushel::rows::Pool;
use idem_scope::{scoped, Component, ScopeError, ScopedKey};
use sha2::{Digest, Sha256};

pub const SEPARATORS: [char; 5] = ['\0', '\u{1e}', ':', '|', '#'];

/// Fail closed: a component that contains a separator is refused.
pub fn check_component(c: Component, value: &str) -> Result<(), ScopeError> {
    if value.is_empty() {
        return Err(ScopeError::Missing(c));
    }
    if value.contains(SEPARATORS) {
        return Err(ScopeError::ContainsSeparator(c));
    }
    Ok(())
}

/// Case-insensitive org codes: normalise case, never characters.
pub fn normalise_org(org_id: &str) -> String {
    org_id.to_ascii_lowercase()
}

pub fn build(org_id: &str, user_id: &str, route: &str, client_key: &str) -> Result<ScopedKey, ScopeError> {
    check_component(Component::Tenant, org_id)?;
    check_component(Component::Principal, user_id)?;
    check_component(Component::Key, client_key)?;
    scoped(&normalise_org(org_id), user_id, route, client_key)
}

/// Which replay shard a key lives on.
pub fn shard_of(key: &ScopedKey, shards: u32) -> u32 {
    key.shard(shards)
}

/// Legacy shard choice still used by the kiosk sync, by client key.
pub fn legacy_shard(client_key: &str, shards: u32) -> u32 {
    let d = Sha256::digest(client_key.as_bytes());
    u32::from_be_bytes([d[0], d[1], d[2], d[3]]) % shards
}

const INSERT_SCOPED: &str = "INSERT INTO idempotency_records \
    (scope_version, tenant_id, principal_id, route, ns, idem_key, fingerprint, status) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress') ON CONFLICT DO NOTHING";

pub async fn record(pool: &Pool, key: &ScopedKey, fp: &[u8; 32]) -> Result<u64, bushel::Error> {
    let c = key.columns();
    pool.prep(INSERT_SCOPED)
        .bind(c.scope_version)
        .bind(c.tenant_id)
        .bind(c.principal_id)
        .bind(c.route)
        .bind(c.ns)
        .bind(c.idem_key)
        .bind(fp.as_slice())
        .run()
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(s: &str) -> String {
        s.replace(SEPARATORS, "")
    }

    #[test]
    fn separators_are_refused() {
        assert!(check_component(Component::Tenant, "a:b").is_err());
        assert_eq!(strip("a:b"), "ab");
    }
}
