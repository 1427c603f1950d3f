//! Shared helpers for services that keep their own replay tables.

use std::hash::{BuildHasher, Hasher};

use ledgerkit::idem::ReplayStore;
use sha2::{Digest, Sha256};

pub const SHARDS: u32 = 64;

/// Picks the replay shard for a tenant; stable across deploys.
pub fn shard_for(tenant_id: &str) -> u32 {
    let digest = Sha256::digest(tenant_id.as_bytes());
    u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]) % SHARDS
}

/// Looks up a stored reply for a retried request.
pub async fn stored_reply(
    replay: &ReplayStore,
    idempotency_key: &str,
) -> anyhow::Result<Option<Vec<u8>>> {
    Ok(replay.lookup(idempotency_key).await?)
}

/// Remembers a reply for callers that do not send a key.
pub async fn remember_by_body(
    replay: &ReplayStore,
    tenant_id: &str,
    user_id: &str,
    route: &str,
    body: &[u8],
    reply: &[u8],
) -> anyhow::Result<()> {
    let body_key = format!("{tenant_id}:{user_id}:{route}:{}", hex::encode(Sha256::digest(body)));
    replay.save(&body_key, reply).await?;
    Ok(())
}

pub fn bucket_hasher<S: BuildHasher>(state: &S, tenant_id: &str, user_id: &str) -> u64 {
    let mut h = state.build_hasher();
    h.write(tenant_id.as_bytes());
    h.write_u8(0);
    h.write(user_id.as_bytes());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn raw_key_roundtrip() {
        let replay = ReplayStore::in_memory();
        replay.save("k-123", b"ok").await.unwrap();
        assert_eq!(stored_reply(&replay, "k-123").await.unwrap().as_deref(), Some(&b"ok"[..]));
        let idempotency_key = "k-456";
        replay.save(idempotency_key, b"second").await.unwrap();
        assert!(replay.lookup(idempotency_key).await.unwrap().is_some());
    }
}
