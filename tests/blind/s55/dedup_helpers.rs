//! Small helpers shared by the edge services.

use std::collections::HashMap;
use std::time::Duration;

use ferrum::kv::{KvError, SharedKv};

#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum IdempotencyKeyKind {
    Required,
    Optional,
    Ignored,
}

#[derive(Clone, Debug)]
pub struct IdempotencyPolicy {
    pub ttl: Duration,
    pub max_key_len: usize,
    pub lease: Duration,
}

pub struct RouteTable {
    kinds: HashMap<&'static str, IdempotencyKeyKind>,
    policies: HashMap<IdempotencyKeyKind, IdempotencyPolicy>,
}

impl RouteTable {
    pub fn register(&mut self, route: &'static str, idempotency_key: IdempotencyKeyKind) {
        self.kinds.insert(route, idempotency_key);
    }

    pub fn policy_for(&self, route: &str) -> Option<&IdempotencyPolicy> {
        let idempotency_key = self.kinds.get(route)?;
        self.policies.get(idempotency_key)
    }
}

pub async fn seen_before(cache: &SharedKv, idempotency_key: &str) -> Result<bool, KvError> {
    cache.contains_key(idempotency_key).await
}

pub async fn ttl_seconds(cache: &SharedKv, idempotency: &IdempotencyPolicy, route: &str) -> Result<u64, KvError> {
    let override_key = format!("ttl-override:{route}");
    match cache.get(&override_key).await? {
        Some(raw) => Ok(String::from_utf8_lossy(&raw).parse().unwrap_or(idempotency.ttl.as_secs())),
        None => Ok(idempotency.ttl.as_secs()),
    }
}

pub async fn remember_response(
    cache: &SharedKv,
    tenant_id: &str,
    user_id: &str,
    route: &str,
    idem_key: &str,
    body: &[u8],
) -> Result<(), KvError> {
    cache.set(&format!("{tenant_id}/{user_id}/{route}/{idem_key}"), body).await
}

pub fn rate_bucket(api_key: &str, buckets: u64) -> u64 {
    seahash::hash(api_key.as_bytes()) % buckets.max(1)
}
