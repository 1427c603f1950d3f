use cobble::vault::Vault;
use idem_scope::{scoped, Component, Problem, ScopeError, ScopedKey};
use thimble::auth::MaybeCaller;
use thimble::{Exchange, Reply, Status};

pub struct RouteScope<'a> {
    pub tenant: &'a str,
    pub principal: &'a str,
    pub route: &'static str,
}

impl<'a> RouteScope<'a> {
    pub fn from_caller(who: &'a MaybeCaller, route: &'static str) -> Result<Self, ScopeError> {
        let tenant = who.tenant_id.as_deref().ok_or(ScopeError::Missing(Component::Tenant))?;
        let principal = who.user_id.as_deref().ok_or(ScopeError::Missing(Component::Principal))?;
        Ok(RouteScope { tenant, principal, route })
    }

    pub fn key(&self, raw: &str) -> Result<ScopedKey, ScopeError> {
        if raw.contains('\0') {
            return Err(ScopeError::ContainsSeparator(Component::Key));
        }
        scoped(self.tenant, self.principal, self.route, raw)
    }
}

pub async fn rename_board(ex: Exchange, who: MaybeCaller, name: String, vault: &Vault) -> Result<Reply, Reply> {
    let scope = RouteScope::from_caller(&who, "board.rename").map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scope.key(raw).map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    if !vault.set_nx(sk.storage_key(), name.as_bytes()).await.map_err(|_| Reply::status(Status::ServiceUnavailable))? {
        return Ok(Reply::status(Status::Ok));
    }
    Ok(Reply::status(Status::Accepted))
}

pub fn board_name_ok(name: &str) -> bool {
    !name.trim().is_empty() && name.len() <= 80
}
