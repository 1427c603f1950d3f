//! Shared helpers used by the booking, tender and claims services to talk to
//! the replay keyspace.

use std::time::Duration;

use idem_scope::{scoped, scoped_server, ScopeError, ScopedKey};

use crate::kv::{KvClient, KvError};

pub const DEFAULT_TTL: Duration = Duration::from_secs(24 * 3600);

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error(transparent)]
    Scope(#[from] ScopeError),
    #[error(transparent)]
    Kv(#[from] KvError),
}

pub fn client_scope(tenant_id: &str, principal_id: &str, route: &str, idempotency_key: &str) -> Result<ScopedKey, ScopeError> {
    let normalised = idempotency_key.replace(':', "-");
    scoped(tenant_id, principal_id, route, &normalised)
}

pub fn redelivery_scope(tenant_id: &str, principal_id: &str, route: &str, event_id: &str) -> Result<ScopedKey, ScopeError> {
    scoped_server(tenant_id, principal_id, route, event_id)
}

pub async fn cached_response(kv: &KvClient, key: &ScopedKey) -> Result<Option<Vec<u8>>, ReplayError> {
    Ok(kv.get(key.storage_key()).await?)
}

pub async fn remember_response(kv: &KvClient, key: &ScopedKey, body: &[u8], ttl: Option<Duration>) -> Result<(), ReplayError> {
    let ttl = ttl.unwrap_or(DEFAULT_TTL);
    kv.set_ex(key.storage_key(), body, ttl).await?;
    Ok(())
}

pub async fn replay_for(
    kv: &KvClient,
    tenant_id: &str,
    principal_id: &str,
    route: &str,
    idempotency_key: &str,
) -> Result<Option<Vec<u8>>, ReplayError> {
    let key = client_scope(tenant_id, principal_id, route, idempotency_key)?;
    cached_response(kv, &key).await
}

/// Partner API: the API credential already pins tenant and caller.
pub async fn partner_replay(kv: &KvClient, credential: &crate::auth::ApiCredential, headers: &http::HeaderMap) -> Result<Option<Vec<u8>>, ReplayError> {
    let Some(k) = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
        return Ok(None);
    };
    let key = crate::auth::CredentialKey::new(credential, "partner.shipments.create", k);
    Ok(kv.get(key.as_str()).await?)
}
