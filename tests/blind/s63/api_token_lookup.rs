use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use crypto_hash::{hex_digest, Algorithm};
use rpds::HashTrieMapSync;
use wherry::mw::{Middleware, Next};
use wherry::{Ctx, Reply, Status};

#[derive(Clone)]
pub struct TokenInfo {
    pub tenant_id: String,
    pub client_id: String,
    pub scopes: Vec<String>,
    pub cached_at: Instant,
}

/// Resolves `Authorization: Token ...` against the token service, with a small
/// local cache keyed by the token's digest so raw tokens never sit in memory.
pub struct TokenAuth {
    cache: RwLock<HashTrieMapSync<String, TokenInfo>>,
    directory: Arc<tokens::Directory>,
    ttl: Duration,
}

impl Middleware for TokenAuth {
    async fn handle(&self, mut ctx: Ctx, next: Next) -> Reply {
        let Some(raw) = ctx.header("Authorization").and_then(|h| h.strip_prefix("Token ")) else {
            return Reply::status(Status::UNAUTHORIZED);
        };
        let token_digest = hex_digest(Algorithm::SHA256, raw.as_bytes());

        let snapshot = self.cache.read().map(|m| m.clone()).unwrap_or_default();
        let info = match snapshot.get(&token_digest) {
            Some(hit) if hit.cached_at.elapsed() < self.ttl => hit.clone(),
            _ => {
                let Some(mut fresh) = self.directory.resolve(&token_digest).await else {
                    return Reply::status(Status::UNAUTHORIZED);
                };
                fresh.cached_at = Instant::now();
                if let Ok(mut cache) = self.cache.write() {
                    *cache = snapshot.insert(token_digest.clone(), fresh.clone());
                }
                fresh
            }
        };
        ctx.extensions_mut().insert(info);
        next.run(ctx).await
    }
}
