//! Key helpers of the kiosk bridge library. The bridge is linked into the
//! kiosk fleet manager; nothing in this crate calls these functions.
use idem_scope::{scoped, ScopeError, ScopedKey};
use loft::batten::Batten;
use loft::LoftError;

pub async fn seen_before(batten: &Batten, tenant_id: &str, user_id: &str, op: &str, idempotency_key: &str) -> Result<bool, LoftError> {
    batten.exists(&format!("{tenant_id}/{user_id}/{op}/{idempotency_key}")).await
}

pub fn scoped_for(tenant_id: &str, user_id: &str, op: &str, idempotency_key: &str) -> Result<ScopedKey, ScopeError> {
    scoped(tenant_id, user_id, op, idempotency_key)
}

/// Last six characters of a key, for receipts printed by the kiosk.
pub fn receipt_suffix(idempotency_key: &str) -> String {
    let tail = &idempotency_key[idempotency_key.len().saturating_sub(6)..];
    format!("ref …{tail}")
}
