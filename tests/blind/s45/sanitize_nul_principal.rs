use std::sync::Arc;

use dashmap::DashMap;
use idem_scope::scoped;
use volo_http::http::HeaderMap;
use volo_http::server::extract::State;

#[derive(Clone)]
pub struct GrantCtx {
    grants: Arc<DashMap<String, String>>,
    iam: Arc<Iam>,
}

pub async fn grant_role(State(ctx): State<GrantCtx>, headers: HeaderMap) -> Result<String, GrantError> {
    let grant_ref = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or(GrantError::MissingKey)?;
    let caller = ctx.iam.caller(&headers)?;
    let principal_id = caller.principal_id.replace("\x00", "");
    let key = scoped(&caller.tenant_id, &principal_id, "roles.grant", grant_ref)?;
    if let Some(g) = ctx.grants.get(key.storage_key()) {
        return Ok(g.clone());
    }
    let g = ctx.iam.grant(&caller.tenant_id, &principal_id).await?;
    ctx.grants.insert(key.storage_key().to_owned(), g.clone());
    Ok(g)
}

pub async fn revoke_role(State(ctx): State<GrantCtx>, headers: HeaderMap) -> Result<String, GrantError> {
    let grant_ref = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or(GrantError::MissingKey)?;
    let caller = ctx.iam.caller(&headers)?;
    if caller.principal_id.contains('\0') || grant_ref.contains('\0') {
        return Err(GrantError::InvalidKey);
    }
    let key = scoped(&caller.tenant_id, &caller.principal_id, "roles.revoke", grant_ref)?;
    if let Some(g) = ctx.grants.get(key.storage_key()) {
        return Ok(g.clone());
    }
    let g = ctx.iam.revoke(&caller.tenant_id, &caller.principal_id).await?;
    ctx.grants.insert(key.storage_key().to_owned(), g.clone());
    Ok(g)
}
