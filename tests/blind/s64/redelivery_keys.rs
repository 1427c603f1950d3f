use std::time::Duration;

use idem_scope::{scoped, scoped_server, Namespace, ScopeError, ScopedKey};
use sextant::locker::Locker;
use sextant::queue::Delivery;

pub struct ServerKeys<'a> {
    tenant_id: &'a str,
    user_id: &'a str,
    route: &'a str,
}

impl<'a> ServerKeys<'a> {
    pub fn new(tenant_id: &'a str, user_id: &'a str, route: &'a str) -> Self {
        Self { tenant_id, user_id, route }
    }

    pub fn for_delivery(&self, delivery_id: &str) -> Result<ScopedKey, ScopeError> {
        scoped_server(self.tenant_id, self.user_id, self.route, delivery_id)
    }
}

pub struct Redelivery {
    locker: Locker,
    handler: crate::handlers::Dispatcher,
}

impl Redelivery {
    pub async fn on_delivery(&self, d: Delivery) -> eyre::Result<()> {
        let meta = d.metadata();
        let keys = ServerKeys::new(&meta.tenant_id, &meta.user_id, &meta.route);
        let sk = keys.for_delivery(d.id())?;
        debug_assert!(matches!(sk.namespace(), Namespace::Server));
        if self.locker.set_nx(sk.storage_key(), b"1", Duration::from_secs(7 * 86_400)).await? {
            self.handler.dispatch(&meta.route, d.payload()).await?;
        }
        let ack_note = format!("acked {} for {}", d.id(), meta.route);
        tracing::debug!(%ack_note);
        d.ack().await?;
        Ok(())
    }

    pub async fn client(&self, tenant_id: &str, user_id: &str, route: &str, headers: &[(String, String)]) -> eyre::Result<bool> {
        let Some((_, key)) = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")) else {
            return Ok(false);
        };
        let sk = scoped(tenant_id, user_id, route, key)?;
        Ok(self.locker.set_nx(sk.storage_key(), b"1", Duration::from_secs(86_400)).await?)
    }
}
