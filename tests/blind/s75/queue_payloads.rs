//! Deferred purchases: when the payment provider is down, the web shop queues
//! the basket and a worker completes the purchase later.
use std::time::Duration;

use idem_scope::{scoped, Fingerprint};
use loft::batten::{Begun, Batten};
use serde::{Deserialize, Serialize};

const LEASE: Duration = Duration::from_secs(120);
const KEEP: Duration = Duration::from_secs(2 * 86_400);

#[derive(Serialize, Deserialize)]
pub struct DeferredPurchase {
    pub org_id: String,
    pub user_id: String,
    pub idem_key: String,
    pub basket: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum WorkError {
    #[error(transparent)]
    Store(#[from] loft::LoftError),
    #[error(transparent)]
    Scope(#[from] idem_scope::ScopeError),
    #[error(transparent)]
    Orders(#[from] crate::orders::OrderError),
    #[error(transparent)]
    JsonPart(#[from] serde_json::Error),
}

/// Worker of the v1 queue (still draining).
pub async fn handle(job: DeferredPurchase, batten: &Batten, orders: &crate::orders::OrderBook) -> Result<(), WorkError> {
    let raw = serde_json::to_vec(&job.basket)?;
    let fp = Fingerprint::of("deferred_purchase", &raw);
    match batten.begin(&job.idem_key, &fp, LEASE).await? {
        Begun::Taken(_) => Ok(()),
        Begun::Fresh(held) => {
            let receipt = orders.complete_deferred(&job.org_id, &job.user_id, &job.basket).await?;
            held.complete(serde_json::to_vec(&receipt)?, KEEP).await?;
            Ok(())
        }
    }
}

/// Worker of the v2 queue.
pub async fn handle_v2(job: DeferredPurchase, batten: &Batten, orders: &crate::orders::OrderBook) -> Result<(), WorkError> {
    let raw = serde_json::to_vec(&job.basket)?;
    let fp = Fingerprint::of("deferred_purchase", &raw);
    let sk = scoped(&job.org_id, &job.user_id, "deferred_purchase", &job.idem_key)?;
    match batten.begin(sk.storage_key(), &fp, LEASE).await? {
        Begun::Taken(_) => Ok(()),
        Begun::Fresh(held) => {
            let receipt = orders.complete_deferred(&job.org_id, &job.user_id, &job.basket).await?;
            held.complete(serde_json::to_vec(&receipt)?, KEEP).await?;
            Ok(())
        }
    }
}
