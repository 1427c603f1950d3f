//! Response replay cache shared by the partner gateway's handlers.

use std::sync::Mutex;

use cistern::vat::Vat;
use idem_scope::{scoped, ScopeError};
use lru_mem::{HeapSize, LruCache};

#[derive(Clone)]
pub struct CachedResponse {
    pub status: u16,
    pub content_type: String,
    pub body: Vec<u8>,
}

impl HeapSize for CachedResponse {
    fn heap_size(&self) -> usize {
        self.content_type.heap_size() + self.body.heap_size()
    }
}

pub struct ReplayCache {
    inner: Mutex<LruCache<String, CachedResponse>>,
}

impl ReplayCache {
    pub fn with_budget(bytes: usize) -> Self {
        Self { inner: Mutex::new(LruCache::new(bytes)) }
    }

    /// Stores the response a partner call produced, for replay on retry.
    pub fn remember_response(&self, idempotency_key: &str, response: CachedResponse) {
        let mut inner = self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Err(e) = inner.insert(idempotency_key.to_owned(), response) {
            log::warn!("replay cache full: {}", e);
        }
    }

    /// Scoped variant used by the v2 handlers.
    pub fn remember_scoped(
        &self,
        tenant_id: &str,
        user_id: &str,
        route: &str,
        key: &str,
        response: CachedResponse,
    ) -> Result<(), ScopeError> {
        let idempotency_key = scoped(tenant_id, user_id, route, key)?.storage_key().to_owned();
        let mut inner = self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Err(e) = inner.insert(idempotency_key, response) {
            log::warn!("replay cache full: {}", e);
        }
        Ok(())
    }

    pub fn recall_scoped(&self, tenant_id: &str, user_id: &str, route: &str, key: &str) -> Result<Option<CachedResponse>, ScopeError> {
        let sk = scoped(tenant_id, user_id, route, key)?;
        let mut inner = self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        Ok(inner.get(sk.storage_key()).cloned())
    }

    pub fn len(&self) -> usize {
        self.inner.lock().map(|c| c.len()).unwrap_or(0)
    }
}

// Read-side helpers used by the edge workers to answer retries without
// waking the origin.

/// Returns the stored reply for a retried request, if the origin recorded one.
pub async fn cached_reply(store: &Vat, tenant_id: &str, user_id: &str, route: &str, x_idempotency_key: &str) -> Option<Vec<u8>> {
    store.get(&format!("{tenant_id}/{user_id}/{route}/{x_idempotency_key}")).await.ok().flatten()
}

/// Same lookup for origins that moved to scoped keys. Some SDKs send the key
/// quoted (RFC 9651 string), others bare; both name the same request.
pub async fn cached_reply_v2(store: &Vat, tenant_id: &str, user_id: &str, route: &str, x_idempotency_key: &str) -> Result<Option<Vec<u8>>, ScopeError> {
    let unquoted = x_idempotency_key.trim_matches('"');
    let sk = scoped(tenant_id, user_id, route, unquoted)?;
    Ok(store.get(sk.storage_key()).await.ok().flatten())
}

/// Cache-Control value the edge sends with a replayed reply.
pub fn replay_cache_control(route: &str) -> String {
    format!("private, max-age=0, idempotent-route={}", route)
}
