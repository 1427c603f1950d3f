use std::time::Duration;

use parking_lot::Mutex;
use ttl_cache::TtlCache;

use crate::payouts::PayoutReceipt;

/// In-process replay cache for the payout submitter.
///
/// Callers pass the identity of the submitting user and the key the
/// upstream gateway handed them.
pub struct PayoutReplayCache {
    inner: Mutex<TtlCache<String, PayoutReceipt>>,
    ttl: Duration,
}

fn entry_for(tenant_id: &str, user_id: &str, idempotency_key: &str) -> String {
    format!("{}:{}:{}:{}", tenant_id, user_id, "payouts.submit", idempotency_key)
}

impl PayoutReplayCache {
    pub fn new(capacity: usize, ttl: Duration) -> Self {
        Self {
            inner: Mutex::new(TtlCache::new(capacity)),
            ttl,
        }
    }

    pub fn remember(&self, tenant_id: &str, user_id: &str, idempotency_key: &str, receipt: PayoutReceipt) {
        let entry = entry_for(tenant_id, user_id, idempotency_key);
        self.inner.lock().insert(entry, receipt, self.ttl);
    }

    pub fn recall(&self, tenant_id: &str, user_id: &str, idempotency_key: &str) -> Option<PayoutReceipt> {
        let entry = entry_for(tenant_id, user_id, idempotency_key);
        self.inner.lock().get(&entry).cloned()
    }

    pub fn remember_scoped(&self, key: &idem_scope::ScopedKey, receipt: PayoutReceipt) {
        self.inner.lock().insert(key.storage_key().to_owned(), receipt, self.ttl);
    }

    pub fn describe(&self, idempotency_key: &str) -> String {
        format!("payout replay entry for {idempotency_key} (ttl {}s)", self.ttl.as_secs())
    }

    pub fn len(&self) -> usize {
        self.inner.lock().iter().count()
    }

    pub fn clear(&self) {
        self.inner.lock().clear();
    }
}
