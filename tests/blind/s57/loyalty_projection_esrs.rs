use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use async_trait::async_trait;
use esrs::handler::EventHandler;
use esrs::store::StoreEvent;
use esrs::Aggregate;

use crate::loyalty::{LoyaltyAggregate, LoyaltyEvent, PointsLedger};

#[derive(Clone, Hash, PartialEq, Eq)]
pub struct ReplayKey {
    pub tenant_id: String,
    pub user_id: String,
    pub route: String,
    pub key: String,
}

#[derive(Clone)]
pub struct Replays {
    inner: Arc<RwLock<HashMap<ReplayKey, Vec<u8>>>>,
}

impl Replays {
    pub fn get(&self, k: &ReplayKey) -> Option<Vec<u8>> {
        self.inner.read().ok()?.get(k).cloned()
    }

    pub fn insert(&self, k: ReplayKey, v: Vec<u8>) {
        if let Ok(mut m) = self.inner.write() {
            m.insert(k, v);
        }
    }
}

/// Grants points from two directions through one replay table, so HTTP
/// retries and redelivered events never double-grant.
pub struct GrantProjection {
    pub replays: Replays,
    pub ledger: PointsLedger,
}

impl GrantProjection {
    /// HTTP side: POST /v1/points/grant with an Idempotency-Key header.
    pub async fn grant_points(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str, points: i64) -> Result<Vec<u8>, crate::ApiError> {
        let client_key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or(crate::ApiError::MissingKey)?;
        let k = ReplayKey { tenant_id: tenant_id.into(), user_id: user_id.into(), route: "points.grant".into(), key: client_key.into() };
        if let Some(prev) = self.replays.get(&k) {
            return Ok(prev);
        }
        let entry = self.ledger.grant(tenant_id, user_id, points).await?;
        let body = serde_json::to_vec(&entry)?;
        self.replays.insert(k, body.clone());
        Ok(body)
    }
}

#[async_trait]
impl EventHandler<LoyaltyAggregate> for GrantProjection {
    async fn handle(&self, event: &StoreEvent<<LoyaltyAggregate as Aggregate>::Event>) {
        let LoyaltyEvent::PointsEarned { tenant_id, user_id, points } = &event.payload else {
            return;
        };
        let k = ReplayKey { tenant_id: tenant_id.clone(), user_id: user_id.clone(), route: "points.grant".into(), key: event.id.to_string() };
        if self.replays.get(&k).is_some() {
            return;
        }
        match self.ledger.grant(tenant_id, user_id, *points).await {
            Ok(entry) => self.replays.insert(k, serde_json::to_vec(&entry).unwrap_or_default()),
            Err(e) => log::error!("grant for event {} (aggregate {}) failed: {e}", event.id, event.aggregate_id),
        }
    }

    fn name(&self) -> &'static str {
        "grant_projection"
    }
}
