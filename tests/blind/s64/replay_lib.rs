//! Replay helpers shared by the billing SDK embedders.

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::Duration;

use idem_scope::{scoped, ScopedKey};
use sextant::locker::SyncLocker;

pub trait ReplayBackend {
    fn map(&self) -> &RwLock<HashMap<String, Vec<u8>>>;

    fn lookup(&self, idem_key: &str) -> Option<Vec<u8>> {
        self.map().read().ok()?.get(idem_key).cloned()
    }

    fn lookup_scoped(&self, key: &ScopedKey) -> Option<Vec<u8>> {
        self.map().read().ok()?.get(key.storage_key()).cloned()
    }
}

pub struct Remote {
    locker: SyncLocker,
}

impl Remote {
    pub fn new(locker: SyncLocker) -> Self {
        Self { locker }
    }

    pub fn fetch(&self, tenant_id: &str, user_id: &str, route: &str, idempotency_key: &str) -> Option<Vec<u8>> {
        let slot = format!("{tenant_id}:{user_id}:{route}:{idempotency_key}");
        self.locker.get(&slot).ok().flatten()
    }

    pub fn fetch_scoped(&self, tenant_id: &str, user_id: &str, route: &str, idempotency_key: &str) -> Option<Vec<u8>> {
        let sk = scoped(tenant_id, user_id, route, idempotency_key).ok()?;
        self.locker.get(sk.storage_key()).ok().flatten()
    }

    pub fn store(&self, key: &ScopedKey, response: &[u8], ttl: Duration) -> bool {
        self.locker.put(key.storage_key(), response, ttl).is_ok()
    }
}

pub struct InMemory {
    inner: RwLock<HashMap<String, Vec<u8>>>,
}

impl ReplayBackend for InMemory {
    fn map(&self) -> &RwLock<HashMap<String, Vec<u8>>> {
        &self.inner
    }
}
