use std::sync::RwLock;

use caches::{Cache, TwoQueueCache};
use idem_scope::ScopedKey;

#[derive(Clone)]
pub struct StoredReply {
    pub status: u16,
    pub content_type: String,
    pub body: Vec<u8>,
}

#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    #[error("{0}")]
    NotFound(String),
    #[error("replay cache poisoned")]
    Poisoned,
}

/// Recently produced replies, shared by the public API handlers.
pub struct ReplayRepo {
    recent: RwLock<TwoQueueCache<String, StoredReply>>,
}

impl ReplayRepo {
    pub fn new(capacity: usize) -> Self {
        let cache = TwoQueueCache::new(capacity).expect("capacity must be positive");
        Self { recent: RwLock::new(cache) }
    }

    fn slot(tenant_id: &str, user_id: &str, route: &str, idem_key: &str) -> String {
        format!("{}#{}#{}#{}", tenant_id, user_id, route, idem_key)
    }

    pub fn remember(&self, tenant_id: &str, user_id: &str, route: &str, idem_key: &str, reply: StoredReply) {
        if let Ok(mut recent) = self.recent.write() {
            recent.put(Self::slot(tenant_id, user_id, route, idem_key), reply);
        }
    }

    pub fn recall(&self, tenant_id: &str, user_id: &str, route: &str, idem_key: &str) -> Result<StoredReply, RepoError> {
        let mut recent = self.recent.write().map_err(|_| RepoError::Poisoned)?;
        recent
            .get(&Self::slot(tenant_id, user_id, route, idem_key))
            .cloned()
            .ok_or_else(|| RepoError::NotFound(format!("no stored reply for key {idem_key}")))
    }

    pub fn remember_scoped(&self, key: &ScopedKey, reply: StoredReply) -> Result<(), RepoError> {
        let mut recent = self.recent.write().map_err(|_| RepoError::Poisoned)?;
        recent.put(key.storage_key().to_owned(), reply);
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.recent.read().map(|r| r.len()).unwrap_or(0)
    }
}
