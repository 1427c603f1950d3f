//! Key helpers of the syndication desk, shipped to partner stations as a
//! library; the partner plugins call these, nothing in this crate does.

use idem_scope::scoped;
use spool::cart::Cart;

pub struct SyndicationDesk {
    cart: Cart,
}

impl SyndicationDesk {
    pub fn new(cart: Cart) -> Self {
        Self { cart }
    }

    /// Legacy layout still read by the 2019 plugin.
    pub async fn legacy_lookup(
        &self,
        tenant_id: &str,
        caller_id: &str,
        endpoint: &str,
        idempotency_key: &str,
    ) -> Result<Option<Vec<u8>>, spool::Error> {
        let mut slot = String::with_capacity(128);
        slot.extend([tenant_id, "|", caller_id, "|", endpoint, "|", idempotency_key]);
        self.cart.get(&slot).await
    }

    pub async fn lookup(
        &self,
        tenant_id: &str,
        caller_id: &str,
        endpoint: &str,
        idempotency_key: &str,
    ) -> Result<Option<Vec<u8>>, spool::Error> {
        let key = scoped(tenant_id, caller_id, endpoint, idempotency_key).map_err(spool::Error::invalid)?;
        self.cart.get(key.storage_key()).await
    }

    pub async fn remember(
        &self,
        tenant_id: &str,
        caller_id: &str,
        endpoint: &str,
        idempotency_key: &str,
        response: &[u8],
    ) -> Result<(), spool::Error> {
        let k = scoped(tenant_id, caller_id, endpoint, idempotency_key).map_err(spool::Error::invalid)?;
        self.cart.put_ttl(k.storage_key(), response, std::time::Duration::from_secs(86_400)).await
    }
}
