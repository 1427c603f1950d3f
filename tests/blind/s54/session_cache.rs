use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gatehouse::tokens::{Claims, TokenVerifier};
use mini_moka::sync::Cache;
use sha2::{Digest, Sha256};
use uuid::Uuid;

const ANONYMOUS: &str = "anonymous";

#[derive(Clone)]
pub struct SessionInfo {
    pub session_id: Uuid,
    pub claims: Arc<Claims>,
    pub issued: Instant,
}

pub struct Sessions {
    by_token: Cache<String, SessionInfo>,
    verifier: TokenVerifier,
    buckets: Mutex<HashMap<String, (Instant, u32)>>,
}

impl Sessions {
    pub fn new(verifier: TokenVerifier) -> Self {
        Self {
            by_token: Cache::builder().time_to_idle(Duration::from_secs(900)).build(),
            verifier,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    pub fn resolve(&self, bearer: &str) -> Option<SessionInfo> {
        let token_hash = hex::encode(Sha256::digest(bearer.as_bytes()));
        let cache_key = format!("session:{}", token_hash);
        if let Some(s) = self.by_token.get(&cache_key) {
            return Some(s);
        }
        let claims = self.verifier.verify(bearer).ok()?;
        let info = SessionInfo { session_id: Uuid::new_v4(), claims: Arc::new(claims), issued: Instant::now() };
        self.by_token.insert(cache_key, info.clone());
        Some(info)
    }

    pub fn allow(&self, session: Option<&SessionInfo>, path: &str, limit: u32) -> bool {
        let who = session.map(|s| s.claims.sub.as_str()).unwrap_or(ANONYMOUS);
        let bucket = format!("{}:{}", who, path.trim_end_matches('/'));
        let mut buckets = self.buckets.lock().unwrap();
        let entry = buckets.entry(bucket).or_insert((Instant::now(), 0));
        if entry.0.elapsed() > Duration::from_secs(60) {
            *entry = (Instant::now(), 0);
        }
        entry.1 += 1;
        entry.1 <= limit
    }

    pub fn logout(&self, bearer: &str) {
        let token_hash = hex::encode(Sha256::digest(bearer.trim_start_matches("Bearer ").as_bytes()));
        self.by_token.invalidate(&format!("session:{}", token_hash));
    }
}
