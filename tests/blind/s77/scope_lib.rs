//! Scope helpers shared with the booking SDK adapters (no callers here).

use cornice::drift::SyncDrift;

pub fn remember(kv: &SyncDrift, tenant_id: Option<&str>, user_id: &str, op: &str, idem_key: &str, body: &[u8]) -> Result<(), idem_scope::ScopeError> {
    let tenant = tenant_id.unwrap_or("default");
    let sk = idem_scope::scoped(tenant, user_id, op, idem_key)?;
    kv.put(sk.storage_key(), body);
    Ok(())
}

pub fn remember_strict(kv: &SyncDrift, tenant_id: Option<&str>, user_id: &str, op: &str, idem_key: &str, body: &[u8]) -> Result<(), idem_scope::ScopeError> {
    let tenant = tenant_id.ok_or(idem_scope::ScopeError::Missing(idem_scope::Component::Tenant))?;
    let sk = idem_scope::scoped(tenant, user_id, op, idem_key)?;
    kv.put(sk.storage_key(), body);
    Ok(())
}
