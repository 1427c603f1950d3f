//! `key-clean`: normalisation helpers for the mobile SDK gateway. Older app
//! builds joined their retry token with '|' and the gateway rewrites it.
//! Callers live in the gateway repository.

use idem_scope::{scoped, ScopedKey};
use satchel::pouch::Pouch;

/// Looks up a stored reply for a retried mobile request.
pub async fn lookup_mobile_reply(
    pouch: &Pouch,
    tenant_id: &str,
    user_id: &str,
    route: &str,
    idempotency_key: &str,
) -> anyhow::Result<Option<Vec<u8>>> {
    let normalised = idempotency_key.replace('|', "/");
    let sk: ScopedKey = scoped(tenant_id, user_id, route, &normalised)?;
    Ok(pouch.get(sk.storage_key()).await?)
}

/// Rejects tokens from app builds that still join with '|'.
pub fn check_token(idempotency_key: &str) -> Result<&str, &'static str> {
    if idempotency_key.contains('|') {
        return Err("retry token contains '|'; update the app");
    }
    Ok(idempotency_key)
}

/// Analytics label for the token's app build; not used for storage.
pub fn build_label(app_build: &str) -> String {
    app_build.replace('|', "-")
}
