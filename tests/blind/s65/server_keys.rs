use idem_scope::{scoped_server, Namespace, ScopeError, ScopedKey};
use tessera::kv::Kv;

use crate::events::Envelope;

/// Keys for everything the platform itself redelivers (events, jobs, replays).
pub struct ServerKeys<'a> {
    tenant_id: &'a str,
    actor: &'a str,
}

impl<'a> ServerKeys<'a> {
    pub fn for_envelope(env: &'a Envelope) -> Self {
        Self { tenant_id: &env.tenant_id, actor: &env.actor }
    }

    pub fn event(&self, route: &str, event_id: &str) -> Result<ScopedKey, ScopeError> {
        scoped_server(self.tenant_id, self.actor, route, event_id)
    }

    pub fn replay(&self, route: &str, replay_id: &str) -> Result<ScopedKey, ScopeError> {
        scoped_server(self.tenant_id, self.actor, route, &format!("replay-{replay_id}"))
    }
}

pub async fn remember_event(kv: &Kv, env: &Envelope) -> Result<bool, String> {
    let keys = ServerKeys::for_envelope(env);
    let key = keys.event(&env.route, &env.event_id).map_err(|e| e.to_string())?;
    debug_assert!(matches!(key.namespace(), Namespace::Server));
    if kv.exists(key.storage_key()).await.unwrap_or(false) {
        return Ok(false);
    }
    kv.put(key.storage_key(), env.payload.clone()).await.map_err(|e| e.to_string())?;
    Ok(true)
}

pub async fn remember_replay(kv: &Kv, env: &Envelope, replay_id: &str) -> Result<bool, String> {
    let keys = ServerKeys::for_envelope(env);
    let key = keys.replay(&env.route, replay_id).map_err(|e| e.to_string())?;
    let marker = format!("s:{}", key.storage_key());
    if kv.exists(&marker).await.unwrap_or(false) {
        return Ok(false);
    }
    kv.put(&marker, Vec::new()).await.map_err(|e| e.to_string())?;
    Ok(true)
}

pub async fn lookup_client(kv: &Kv, tenant_id: &str, user_id: &str, route: &str, idempotency_key: &str) -> Option<Vec<u8>> {
    let key = idem_scope::scoped(tenant_id, user_id, route, idempotency_key).ok()?;
    if !matches!(key.namespace(), Namespace::Client) {
        return None;
    }
    kv.get(key.storage_key()).await.ok().flatten()
}
