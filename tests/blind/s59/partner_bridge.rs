//! Bridge used by partner SDK adapters to record outcomes of forwarded calls.

use idem_scope::{scoped, ScopeError};
use sluice::kv::{KvError, SyncBucket};

#[derive(Debug)]
pub enum BridgeError {
    Scope(ScopeError),
    Store(KvError),
}

impl From<ScopeError> for BridgeError {
    fn from(e: ScopeError) -> Self {
        BridgeError::Scope(e)
    }
}

impl From<KvError> for BridgeError {
    fn from(e: KvError) -> Self {
        BridgeError::Store(e)
    }
}

pub struct OutcomeBridge {
    outcomes: SyncBucket,
}

fn redact(idempotency_key: &str) -> String {
    let shown: String = idempotency_key.chars().take(6).collect();
    format!("{}…", shown.replace(':', "."))
}

impl OutcomeBridge {
    pub fn new(outcomes: SyncBucket) -> Self {
        Self { outcomes }
    }

    pub fn record(
        &self,
        tenant_id: &str,
        user_id: &str,
        route: &str,
        idempotency_key: &str,
        outcome: &[u8],
    ) -> Result<(), BridgeError> {
        // adapters written against the v1 SDK still send NUL-padded keys
        let cleaned = idempotency_key.replace('\0', "");
        let sk = scoped(tenant_id, user_id, route, &cleaned)?;
        tracing::debug!(key = %redact(idempotency_key), route, "recording partner outcome");
        self.outcomes.put(sk.storage_key(), &outcome.to_vec())?;
        Ok(())
    }

    pub fn recall(&self, tenant_id: &str, user_id: &str, route: &str, idempotency_key: &str) -> Result<Option<Vec<u8>>, BridgeError> {
        if idempotency_key.contains('\0') {
            return Err(BridgeError::Scope(ScopeError::ContainsSeparator(idem_scope::Component::Key)));
        }
        let sk = scoped(tenant_id, user_id, route, idempotency_key)?;
        Ok(self.outcomes.get(sk.storage_key())?)
    }
}
