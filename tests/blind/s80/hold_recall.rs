//! `hold-recall`: small synchronous helpers used by the terminal operating
//! system's plugins to look at stored replies. No callers in this repository.

use ballast::hold::SyncHold;
use idem_scope::ScopedKey;

/// Returns the stored reply for an idempotency key, if any.
pub fn recall(hold: &SyncHold, idempotency_key: &str) -> Option<Vec<u8>> {
    hold.get(idempotency_key).ok().flatten()
}

/// Returns the stored reply for a key that was already scoped by the caller.
pub fn recall_scoped(hold: &SyncHold, key: &ScopedKey) -> Option<Vec<u8>> {
    hold.get(key.storage_key()).ok().flatten()
}

/// Metric label for key lengths (buckets of 16 characters).
pub fn length_bucket(idempotency_key: &str) -> String {
    format!("len_{}", idempotency_key.len() / 16 * 16)
}

/// Whether two attempts used the same key (for the plugin's "retry?" banner).
pub fn same_attempt(idempotency_key: &str, previous: Option<&str>) -> bool {
    previous.map_or(false, |p| p == idempotency_key)
}

/// Human-readable form of a scoped key for the plugin's admin screen.
pub fn printable(key: &ScopedKey) -> String {
    key.storage_key().replace('\0', " / ")
}
