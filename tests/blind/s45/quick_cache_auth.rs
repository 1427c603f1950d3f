use std::sync::Arc;

use quick_cache::sync::Cache;
use sha2::{Digest, Sha256};

#[derive(Clone)]
pub struct Principal {
    pub tenant_id: String,
    pub user_id: String,
    pub scopes: Vec<String>,
}

/// Resolves bearer tokens to principals; the upstream introspection call is slow.
pub struct TokenResolver {
    principals: Cache<String, Arc<Principal>>,
    sessions: Cache<String, SessionState>,
    introspect: Introspector,
}

impl TokenResolver {
    pub fn new(introspect: Introspector) -> Self {
        TokenResolver { principals: Cache::new(100_000), sessions: Cache::new(10_000), introspect }
    }

    pub fn resolve(&self, bearer: &str) -> Result<Arc<Principal>, AuthError> {
        let token_hash = hex::encode(Sha256::digest(bearer.as_bytes()));
        if let Some(p) = self.principals.get(&token_hash) {
            return Ok(p);
        }
        let p = Arc::new(self.introspect.check(bearer)?);
        self.principals.insert(token_hash, p.clone());
        Ok(p)
    }

    pub fn touch_session(&self, session_id: &str, principal: &Principal) {
        let state = self.sessions.get(session_id).unwrap_or_default();
        self.sessions.insert(session_id.to_owned(), state.touched(&principal.user_id));
    }
}
