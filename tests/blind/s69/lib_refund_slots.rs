//! `voltaic-refunds`: library used by the billing workers and the support
//! console. No caller lives in this crate.

use garner::bin::SyncBin;
use idem_scope::{scoped, ScopeError};

pub struct RefundMemo<'a> {
    pub org_id: &'a str,
    pub user_id: &'a str,
    pub amount_cents: i64,
}

/// Remembers that a refund was issued for a client's retry.
pub fn remember_refund(bin: &SyncBin, memo: &RefundMemo<'_>, idempotency_key: &str, receipt: &[u8]) -> std::io::Result<()> {
    let slot = format!("{}:{}:{}:{}", memo.org_id, memo.user_id, "/v1/refunds", idempotency_key);
    bin.put(&slot, receipt)
}

/// Same, through the runtime crate (used by the new console).
pub fn remember_refund_scoped(bin: &SyncBin, memo: &RefundMemo<'_>, idempotency_key: &str, receipt: &[u8]) -> Result<(), ScopeError> {
    let sk = scoped(memo.org_id, memo.user_id, "/v1/refunds", idempotency_key)?;
    let _ = bin.put(sk.storage_key(), receipt);
    Ok(())
}

/// Audit line for the support console; never stored as a key.
pub fn audit_line(memo: &RefundMemo<'_>, idempotency_key: &str) -> String {
    format!("refund {} cents for {} (key {})", memo.amount_cents, memo.user_id, idempotency_key)
}
