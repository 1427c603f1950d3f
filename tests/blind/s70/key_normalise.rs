//! Key normalisation shared by the channel-manager adapters (library, no callers here).
use coffer::drawer::Drawer;
use idem_scope::{scoped, ScopeError, ScopedKey};

pub fn normalised(tenant_id: &str, user_id: &str, route: &str, idempotency_key: &str) -> Result<ScopedKey, ScopeError> {
    let k = idempotency_key.replace(':', "");
    scoped(tenant_id, user_id, route, &k)
}

pub fn channel_label(channel_code: &str) -> String {
    channel_code.replace(':', "_")
}

pub async fn remember(replays: &Drawer, key: &ScopedKey, body: &[u8]) -> anyhow::Result<()> {
    replays.put(key.storage_key(), body).await?;
    Ok(())
}

pub fn reject_separators(idempotency_key: &str) -> Result<&str, &'static str> {
    if idempotency_key.contains(':') || idempotency_key.contains('\0') {
        return Err("Idempotency-Key must not contain ':' or NUL");
    }
    Ok(idempotency_key.trim_matches(' '))
}
