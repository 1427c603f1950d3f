use std::sync::Mutex;

use highwayhash::{HighwayHash, HighwayHasher, Key};
use thimble::{Exchange, Reply, Status};
use uluru::LRUCache;

#[derive(Clone)]
pub struct SessionInfo {
    pub token_tag: u64,
    pub user_id: String,
    pub locale: String,
}

/// Small in-process cache of validated bearer tokens.
pub struct SessionCache {
    entries: Mutex<LRUCache<SessionInfo, 512>>,
}

fn token_tag(token: &str) -> u64 {
    let mut h = HighwayHasher::new(Key([3, 1, 4, 1]));
    h.append(token.as_bytes());
    h.finalize64()
}

impl SessionCache {
    pub fn new() -> Self {
        SessionCache { entries: Mutex::new(LRUCache::default()) }
    }

    pub fn lookup(&self, ex: &Exchange) -> Result<SessionInfo, Reply> {
        let token = ex
            .header("Authorization")
            .and_then(|v| v.strip_prefix("Bearer "))
            .ok_or_else(|| Reply::status(Status::Unauthorized))?;
        let tag = token_tag(token);
        let mut cache = self.entries.lock().map_err(|_| Reply::status(Status::InternalServerError))?;
        if let Some(hit) = cache.find(|s| s.token_tag == tag) {
            return Ok(hit.clone());
        }
        let claims = crate::auth::introspect(token).map_err(|_| Reply::status(Status::Unauthorized))?;
        let info = SessionInfo {
            token_tag: tag,
            user_id: claims.sub,
            locale: claims.locale.unwrap_or_default(),
        };
        cache.insert(info.clone());
        Ok(info)
    }

    pub fn describe(&self, info: &SessionInfo) -> String {
        format!("session:{:x}:{}", info.token_tag, info.user_id)
    }
}
