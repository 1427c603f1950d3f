//! `campus-keyspace`: shared helpers for services that keep replayable
//! replies in a `satchel` pouch. Callers live in other repositories.

use std::time::Duration;

use idem_scope::ScopedKey;
use satchel::pouch::Pouch;

/// Suffix under which response headers are kept next to a reply body.
const HEADERS_SUFFIX: &str = "#headers";

/// Slot for a reply, from the caller's scope and the client's retry token.
pub fn reply_slot(tenant_id: &str, user_id: &str, route: &str, idempotency_key: &str) -> String {
    format!("{tenant_id}:{user_id}:{route}:{idempotency_key}")
}

/// Stores a reply for a later retry.
pub async fn remember(
    pouch: &Pouch,
    tenant_id: &str,
    user_id: &str,
    route: &str,
    idempotency_key: &str,
    body: &[u8],
    ttl: Duration,
) -> anyhow::Result<()> {
    let slot = reply_slot(tenant_id, user_id, route, idempotency_key);
    pouch.put_ttl(&slot, body, ttl).await?;
    Ok(())
}

/// Headers live beside the body of an already scoped key.
pub async fn remember_headers(pouch: &Pouch, key: &ScopedKey, headers: &[u8], ttl: Duration) -> anyhow::Result<()> {
    let slot = format!("{}{}", key.storage_key(), HEADERS_SUFFIX);
    pouch.put_ttl(&slot, headers, ttl).await?;
    Ok(())
}

/// Expiry buckets are swept by a nightly job; one bucket per tenant and TTL.
pub async fn touch_bucket(pouch: &Pouch, tenant_id: &str, idempotency_ttl_secs: u64) -> anyhow::Result<()> {
    let bucket = format!("ttl-bucket/{tenant_id}/{idempotency_ttl_secs}");
    pouch.put(&bucket, b"1").await?;
    Ok(())
}
