use std::time::Duration;

use idem_scope::ScopedKey;

pub trait Shelf: Send + Sync {
    fn get(&self, key: &str) -> Option<Vec<u8>>;
    fn put(&self, key: &str, value: &[u8], ttl: Duration);
    fn remove(&self, key: &str);
}

#[derive(Clone, Copy, Debug)]
pub struct IdempotencyPolicy {
    pub ttl: Duration,
    pub store_4xx: bool,
    pub max_body: usize,
}

impl Default for IdempotencyPolicy {
    fn default() -> Self {
        Self { ttl: Duration::from_secs(86_400), store_4xx: true, max_body: 1 << 20 }
    }
}

/// Replay lookups shared by the partner SDK shims. Callers pass what the
/// partner sent; the shim layer is responsible for validation.
pub fn replayed_body(shelf: &dyn Shelf, idempotency_key: &str) -> Option<Vec<u8>> {
    shelf.get(idempotency_key)
}

pub fn stash_response(
    shelf: &dyn Shelf,
    idempotency_key: &ScopedKey,
    status: u16,
    body: &[u8],
    idempotency: IdempotencyPolicy,
) {
    if body.len() > idempotency.max_body {
        return;
    }
    if (400..500).contains(&status) && !idempotency.store_4xx {
        return;
    }
    let mut framed = Vec::with_capacity(body.len() + 2);
    framed.extend_from_slice(&status.to_be_bytes());
    framed.extend_from_slice(body);
    shelf.put(idempotency_key.storage_key(), &framed, idempotency.ttl);
}

pub fn evict(shelf: &dyn Shelf, idempotency_key: &ScopedKey) {
    shelf.remove(idempotency_key.storage_key());
}

pub fn split_framed(framed: &[u8]) -> Option<(u16, &[u8])> {
    if framed.len() < 2 {
        return None;
    }
    let status = u16::from_be_bytes([framed[0], framed[1]]);
    Some((status, &framed[2..]))
}
