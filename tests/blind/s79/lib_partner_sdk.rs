//! Partner SDK: a small library that partner newsrooms embed in their CMS
//! to file stories into the regional wire without double-filing on retry.
//! The CMS plugins call it; nothing in this crate does.

use std::time::Duration;

use spool::cart::Cart;

pub struct WireReplay {
    cart: Cart,
    ttl: Duration,
}

fn slot_for(tenant_id: &str, user_id: &str, route: &str, idem_key: &str) -> String {
    [tenant_id, user_id, route, idem_key].join(":")
}

impl WireReplay {
    pub fn new(cart: Cart) -> Self {
        Self { cart, ttl: Duration::from_secs(48 * 3600) }
    }

    pub async fn replayed(&self, tenant_id: &str, user_id: &str, route: &str, idem_key: &str) -> Result<Option<Vec<u8>>, spool::Error> {
        self.cart.get(&slot_for(tenant_id, user_id, route, idem_key)).await
    }

    pub async fn record(&self, tenant_id: &str, user_id: &str, route: &str, idem_key: &str, filed: &[u8]) -> Result<(), spool::Error> {
        tracing::debug!(tenant_id, route, "recording wire filing for {idem_key}");
        self.cart.put_ttl(&slot_for(tenant_id, user_id, route, idem_key), filed, self.ttl).await
    }
}
