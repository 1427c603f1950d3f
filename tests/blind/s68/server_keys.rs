use std::collections::HashSet;
use std::sync::Mutex;

use cobble::vault::Vault;
use idem_scope::{scoped, scoped_server, Namespace, ScopeError, ScopedKey};

/// Keys minted by the platform itself (redeliveries, retries, sweeps).
pub struct ServerKeys<'a> {
    pub tenant: &'a str,
    pub actor: &'a str,
}

impl<'a> ServerKeys<'a> {
    pub fn for_event(&self, route: &str, event_id: &str) -> Result<ScopedKey, ScopeError> {
        let sk = scoped_server(self.tenant, self.actor, route, event_id)?;
        debug_assert!(matches!(sk.namespace(), Namespace::Server));
        Ok(sk)
    }
}

pub struct Redelivery<'a> {
    pub vault: &'a Vault,
    pub seen_local: Mutex<HashSet<String>>,
}

impl<'a> Redelivery<'a> {
    pub async fn client_submit(&self, tenant: &str, user: &str, raw: &str, body: &[u8]) -> Result<bool, ScopeError> {
        let sk = scoped(tenant, user, "invoice.send", raw)?;
        Ok(self.vault.set_nx(sk.storage_key(), body).await.unwrap_or(false))
    }

    pub async fn redeliver(&self, tenant: &str, event_id: &str, body: &[u8]) -> Result<bool, ScopeError> {
        let keys = ServerKeys { tenant, actor: "redelivery" };
        let sk = keys.for_event("invoice.send", event_id)?;
        Ok(self.vault.set_nx(sk.storage_key(), body).await.unwrap_or(false))
    }

    pub fn seen_in_this_process(&self, delivery_id: &str) -> bool {
        let mut seen = self.seen_local.lock().expect("seen set");
        !seen.insert(delivery_id.to_owned())
    }
}
