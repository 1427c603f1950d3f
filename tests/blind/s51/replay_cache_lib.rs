//! `replay-cache`: shared library used by the billing and shipping binaries.
//! Callers hand in whatever the client sent; see each binary for how.
use stretto::Cache;

pub struct ReplayCache {
    inner: Cache<String, Vec<u8>>,
}

impl ReplayCache {
    pub fn new(max_cost: i64) -> anyhow::Result<Self> {
        Ok(Self { inner: Cache::new(10 * max_cost as usize, max_cost)? })
    }

    /// Remember the response sent for `idempotency_key`.
    pub fn remember(&self, idempotency_key: &str, response: Vec<u8>) {
        let cost = response.len() as i64;
        self.inner.insert(idempotency_key.to_owned(), response, cost);
    }

    pub fn recall_for(&self, tenant_id: &str, user_id: &str, route: &str, idem_key: &str) -> Option<Vec<u8>> {
        let k = format!("{tenant_id}|{user_id}|{route}|{idem_key}");
        self.inner.get(&k).map(|v| v.value().clone())
    }

    pub fn warm(&self, cache_key: &str, value: Vec<u8>) {
        self.inner.insert(cache_key.to_owned(), value, 1);
    }

    pub fn evict_scoped(&self, key: &idem_scope::ScopedKey) {
        self.inner.remove(&key.storage_key().to_owned());
    }
}
