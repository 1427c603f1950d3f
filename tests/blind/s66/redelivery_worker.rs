use std::sync::Arc;
use std::time::Duration;

use gannet::queue::{Consumer, Delivery};
use idem_scope::{scoped_server, Fingerprint, Namespace, Record, ScopeError, ScopedKey};
use skerry::stash::{Stash, StashError};

use crate::payments::{ChargeAttempt, Gateway};

/// Builds keys for records the server mints itself.
pub struct ServerKeys;

impl ServerKeys {
    pub fn redelivery(tenant_id: &str, user_id: &str, route: &str, delivery_id: &str) -> Result<ScopedKey, ScopeError> {
        let key = scoped_server(tenant_id, user_id, route, delivery_id)?;
        debug_assert!(matches!(key.namespace(), Namespace::Server));
        Ok(key)
    }
}

#[derive(Debug)]
pub enum WorkError {
    Scope(ScopeError),
    Stash(StashError),
    Decode,
    Gateway(String),
}

pub struct RedeliveryWorker {
    stash: Arc<Stash>,
    gateway: Arc<Gateway>,
}

impl RedeliveryWorker {
    pub async fn run(&self, consumer: &mut Consumer) {
        while let Some(delivery) = consumer.next().await {
            match self.handle(&delivery).await {
                Ok(()) => delivery.ack().await,
                Err(WorkError::Decode) => delivery.reject().await,
                Err(_) => delivery.retry_after(Duration::from_secs(30)).await,
            }
        }
    }

    async fn handle(&self, delivery: &Delivery) -> Result<(), WorkError> {
        let attempt = ChargeAttempt::decode(delivery.payload()).map_err(|_| WorkError::Decode)?;
        let slot = ServerKeys::redelivery(&attempt.tenant_id, &attempt.user_id, "charge_retry", delivery.id()).map_err(WorkError::Scope)?;
        let fingerprint = Fingerprint::of("charge_retry", delivery.payload());

        let hold = self.stash.begin(slot.storage_key(), Duration::from_secs(120)).await.map_err(WorkError::Stash)?;
        let outcome = self.gateway.charge(&attempt).await.map_err(|e| WorkError::Gateway(e.to_string()))?;
        let mut record = Record::completed(fingerprint);
        record.response = Some(outcome.encode());
        hold.complete(&record).await.map_err(WorkError::Stash)?;
        Ok(())
    }
}
