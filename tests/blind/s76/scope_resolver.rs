//! Resolves the idempotency scope for the portal's routes from the card the
//! auth hook put on the request. Missing identity is an error, never a
//! default; separator characters are rejected, never stripped.

use idem_scope::{scoped, Component, Problem, ScopeError, ScopedKey};
use lectern::card::{MaybeStudent, Staff};
use lectern::Ask;

const SEPARATORS: [char; 6] = ['\0', '\u{1e}', ':', '|', '/', '#'];

#[derive(Debug)]
pub struct Scope {
    pub tenant_id: String,
    pub principal_id: String,
    pub route: String,
}

fn checked(component: Component, value: &str) -> Result<&str, ScopeError> {
    if value.is_empty() {
        return Err(ScopeError::Missing(component));
    }
    if value.contains(SEPARATORS) {
        return Err(ScopeError::ContainsSeparator(component));
    }
    Ok(value)
}

pub fn resolve(ask: &Ask) -> Result<Scope, Problem> {
    let maybe = ask.badge::<MaybeStudent>().map_err(|_| Problem::invalid_key("no credentials"))?;
    let tenant_id = maybe.tenant_id().ok_or_else(|| Problem::invalid_key("tenant missing"))?;
    let principal_id = match maybe.user_id() {
        Some(u) => u,
        None => return Err(Problem::invalid_key("principal missing")),
    };
    let route = ask.slot();
    Ok(Scope {
        tenant_id: checked(Component::Tenant, tenant_id).map_err(|e| Problem::invalid_key(&e.to_string()))?.to_owned(),
        principal_id: checked(Component::Principal, principal_id).map_err(|e| Problem::invalid_key(&e.to_string()))?.to_owned(),
        route: route.to_owned(),
    })
}

/// Staff acting for a campus other than their home campus must say which.
pub fn resolve_staff(ask: &Ask, staff: &Staff) -> Result<Scope, Problem> {
    let tenant_id = match ask.head("x-acting-tenant") {
        Some(t) if staff.may_act_for(t) => t.to_owned(),
        Some(_) => return Err(Problem::invalid_key("not allowed to act for that campus")),
        None => staff.tenant_id.clone(),
    };
    Ok(Scope { tenant_id, principal_id: staff.principal_id.clone(), route: ask.slot().to_owned() })
}

pub fn key_for(scope: &Scope, ask: &Ask) -> Result<ScopedKey, Problem> {
    let raw = ask.head("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let display = raw.trim_matches('"');
    tracing::trace!(key = display, route = %scope.route, "scoping");
    scoped(&scope.tenant_id, &scope.principal_id, &scope.route, raw).map_err(|e| Problem::invalid_key(&e.to_string()))
}
