//! Read-through cache for guest profiles served to the mobile app.
use hitbox::{Cache, CacheKey};
use lantern::who::Member;
use lantern::{Verdict, Visit};

pub struct ProfileCache {
    pub cache: Cache<String, Vec<u8>>,
}

impl ProfileCache {
    pub async fn profile(&self, visit: Visit, member: Member) -> Verdict {
        let key = format!("user:{}:profile", member.user_id);
        if let Some(hit) = self.cache.get(&CacheKey::from(key.clone())).await {
            return Verdict::ok(hit);
        }
        let rid = visit.header("X-Request-Id").unwrap_or("-");
        tracing::info!(request_id = %rid, "profile miss");
        let body = crate::profiles::load(&member).await;
        self.cache.set(CacheKey::from(key), body.clone()).await;
        Verdict::ok(body)
    }
}
