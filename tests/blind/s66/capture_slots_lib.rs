//! Slot helpers shared by the capture and profile services.
//!
//! Callers pass the authenticated tenant and user; the helpers only decide
//! where things live in the stash.

use skerry::stash::{Stash, StashError};

pub const CAPTURE_TTL_SECS: u64 = 24 * 3600;

pub fn capture_slot(tenant_id: &str, user_id: &str, idempotency_key: &str) -> String {
    let route = "capture";
    format!("{tenant_id}:{user_id}:{route}:{idempotency_key}")
}

pub async fn cached_capture(
    stash: &Stash,
    tenant_id: &str,
    user_id: &str,
    idempotency_key: &str,
) -> Result<Option<Vec<u8>>, StashError> {
    stash.get(&capture_slot(tenant_id, user_id, idempotency_key)).await
}

pub async fn keep_capture(
    stash: &Stash,
    tenant_id: &str,
    user_id: &str,
    idempotency_key: &str,
    body: &[u8],
) -> Result<(), StashError> {
    stash
        .put_ttl(&capture_slot(tenant_id, user_id, idempotency_key), body, CAPTURE_TTL_SECS)
        .await
}

pub fn profile_slot(tenant_id: &str, user_id: &str) -> String {
    format!("{}:{}:profile", tenant_id, user_id)
}

pub async fn cached_profile(stash: &Stash, tenant_id: &str, user_id: &str) -> Option<Vec<u8>> {
    stash.get(&profile_slot(tenant_id, user_id)).await.ok().flatten()
}

pub async fn forget_profile(stash: &Stash, tenant_id: &str, user_id: &str) {
    let _ = stash.remove(&profile_slot(tenant_id, user_id)).await;
}

pub fn describe_capture(tenant_id: &str, idempotency_key: &str) -> String {
    let mut line = String::from("capture replay for tenant ");
    line.push_str(tenant_id);
    line.push_str(" with key ");
    line.push_str(idempotency_key);
    line
}
