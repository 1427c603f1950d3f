//! Client library embedded in affiliate automation systems (traffic and
//! playout vendors link it); nothing in this crate calls it.

use idem_scope::scoped;
use spool::cart::Cart;

pub struct FeedClient {
    replay: Cart,
}

impl FeedClient {
    pub fn new(replay: Cart) -> Self {
        Self { replay }
    }

    pub async fn already_sent(&self, idempotency_key: &str) -> Result<bool, spool::Error> {
        self.replay.exists(idempotency_key).await
    }

    pub async fn remember(
        &self,
        tenant_id: &str,
        client_id: &str,
        operation: &str,
        idempotency_key: &str,
        response: &[u8],
    ) -> Result<(), spool::Error> {
        let scoped_key = scoped(tenant_id, client_id, operation, idempotency_key).map_err(spool::Error::invalid)?;
        self.replay.put(scoped_key.storage_key(), response).await
    }
}
