//! `replay-lookup`: a thin library used by the older PHP-to-Rust bridge
//! services to find a stored reply before re-running a request. Callers are in
//! other repositories.

use idem_scope::{scoped, ScopedKey};
use satchel::pouch::Pouch;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct StoredReply {
    pub status: u16,
    pub body: Vec<u8>,
}

/// Fast path used by the bridge: the legacy services already namespaced the
/// key when they wrote it, so it is looked up as given.
pub async fn find_reply(pouch: &Pouch, idempotency_key: &str) -> anyhow::Result<Option<StoredReply>> {
    let raw = pouch.get(idempotency_key).await?;
    Ok(raw.map(|b| serde_json::from_slice(&b)).transpose()?)
}

/// New services pass the scope explicitly.
pub async fn find_scoped_reply(
    pouch: &Pouch,
    tenant_id: &str,
    principal_id: &str,
    route: &str,
    idempotency_key: &str,
) -> anyhow::Result<Option<StoredReply>> {
    let sk: ScopedKey = scoped(tenant_id, principal_id, route, idempotency_key)?;
    let raw = pouch.get(sk.storage_key()).await?;
    Ok(raw.map(|b| serde_json::from_slice(&b)).transpose()?)
}

/// How long a reply may be replayed; shared with the bridge's config loader.
pub fn replay_window(idempotency_window_secs: Option<u64>) -> std::time::Duration {
    std::time::Duration::from_secs(idempotency_window_secs.unwrap_or(86_400))
}
