use std::sync::Arc;

use futures::StreamExt;
use idem_scope::{scoped, Problem};
use larder::pantry::Pantry;
use libp2p::gossipsub::{self, IdentTopic};
use libp2p::swarm::{Swarm, SwarmEvent};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone)]
pub struct PlaceOrder {
    pub tenant_id: String,
    pub user_id: String,
    pub market: String,
    pub side: String,
    pub qty: u64,
}

pub struct OrderRelay {
    placed: Arc<Pantry>,
    topic: IdentTopic,
}

impl OrderRelay {
    /// Local REST ingress; the gateway forwards the caller's Idempotency-Key.
    pub async fn place_local(&self, headers: &http::HeaderMap, order: PlaceOrder) -> Result<(), Problem> {
        let key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(Problem::missing_key)?;
        let scoped_key = scoped(&order.tenant_id, &order.user_id, "orders.place", key)
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        if self.placed.exists(scoped_key.storage_key()).await.unwrap_or(false) {
            return Ok(());
        }
        self.placed.put(scoped_key.storage_key(), b"placed", std::time::Duration::from_secs(3600)).await.ok();
        Ok(())
    }

    /// Orders that other relays accepted arrive over gossip and must be placed once.
    pub async fn pump(&self, swarm: &mut Swarm<gossipsub::Behaviour>) -> anyhow::Result<()> {
        swarm.behaviour_mut().subscribe(&self.topic)?;
        loop {
            let SwarmEvent::Behaviour(gossipsub::Event::Message { message_id, message, .. }) = swarm.select_next_some().await else {
                continue;
            };
            let order: PlaceOrder = match serde_json::from_slice(&message.data) {
                Ok(o) => o,
                Err(e) => {
                    tracing::warn!(%message_id, error = %e, "dropping malformed gossip order");
                    continue;
                }
            };
            let gossip_key = scoped(&order.tenant_id, &order.user_id, "orders.place", &format!("gossip:{message_id}"))?;
            if self.placed.exists(gossip_key.storage_key()).await? {
                continue;
            }
            self.placed.put(gossip_key.storage_key(), b"placed", std::time::Duration::from_secs(3600)).await?;
        }
    }
}
