//! `scope-defaults`: helper shared by the older campus services that migrated
//! to idem_scope. Single-campus deployments pass no tenant. Callers live in
//! other repositories.

use idem_scope::{scoped, ScopeError, ScopedKey};

/// Builds the scoped key for a client's retry.
pub fn client_scope(
    tenant_id: Option<&str>,
    user_id: &str,
    route: &str,
    idempotency_key: &str,
) -> Result<ScopedKey, ScopeError> {
    let tenant_id = tenant_id.unwrap_or("default");
    scoped(tenant_id, user_id, route, idempotency_key)
}

/// Same, for deployments that must name the campus (multi-tenant mode).
pub fn strict_client_scope(
    tenant_id: Option<&str>,
    user_id: &str,
    route: &str,
    idempotency_key: &str,
) -> Result<ScopedKey, ScopeError> {
    let tenant_id = tenant_id.ok_or(ScopeError::Missing(idem_scope::Component::Tenant))?;
    scoped(tenant_id, user_id, route, idempotency_key)
}

/// Display label for admin screens (never used as a key).
pub fn scope_label(tenant_id: Option<&str>, user_id: &str) -> String {
    format!("{} / {}", tenant_id.unwrap_or("default campus"), user_id)
}
