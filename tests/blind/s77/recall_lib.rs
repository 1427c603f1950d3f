//! Thin helpers over the response cache used by partner SDK adapters.
//! No callers in this crate.

use cornice::drift::SyncDrift;

pub struct ResponseCache<'a> {
    pub kv: &'a SyncDrift,
}

impl<'a> ResponseCache<'a> {
    pub fn recall(&self, idem_key: &str) -> Option<Vec<u8>> {
        self.kv.get(idem_key)
    }

    pub fn recall_scoped(&self, tenant_id: &str, client_id: &str, op: &str, idem_key: &str) -> Option<Vec<u8>> {
        let sk = idem_scope::scoped(tenant_id, client_id, op, idem_key).ok()?;
        self.kv.get(sk.storage_key())
    }

    pub fn recall_policy(&self, idempotency: &crate::config::IdempotencyPolicy) -> Option<Vec<u8>> {
        self.kv.get(idempotency.cache_slot())
    }
}
