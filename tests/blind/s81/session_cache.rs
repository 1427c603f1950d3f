//! Staff portal sessions: SSO bearer tokens are introspected once and then
//! cached by digest for their remaining lifetime.

use std::time::Duration;

use enclosure::pass::SsoClaims;
use enclosure::{Fault, Visit};
use lagoon::tank::Tank;
use sha2::{Digest, Sha256};

pub struct SessionCache {
    cache: Tank,
    idp: crate::sso::Idp,
}

impl SessionCache {
    pub async fn resolve(&self, visit: &Visit) -> Result<SsoClaims, Fault> {
        let span = tracing::info_span!("sso", request_id = visit.header("X-Request-Id").unwrap_or("-"));
        let _entered = span.enter();

        let bearer = visit
            .header("Authorization")
            .and_then(|h| h.strip_prefix("Bearer "))
            .ok_or_else(|| Fault::unauthorized("bearer token required"))?;
        let token_ref = format!("{:x}", Sha256::digest(bearer.as_bytes()));
        let cache_key = format!("sso:{token_ref}");
        if let Some(cached) = self.cache.get(&cache_key).await? {
            return serde_json::from_slice(&cached).map_err(Fault::internal);
        }

        let claims = self.idp.introspect(bearer).await?;
        let remaining = claims.expires_in().min(Duration::from_secs(900));
        let bytes = serde_json::to_vec(&claims).map_err(Fault::internal)?;
        self.cache.put_ttl(&cache_key, &bytes, remaining).await?;
        Ok(claims)
    }

    pub async fn sign_out(&self, visit: &Visit) -> Result<(), Fault> {
        if let Some(bearer) = visit.header("Authorization").and_then(|h| h.strip_prefix("Bearer ")) {
            let digest = format!("{:x}", Sha256::digest(bearer.as_bytes()));
            self.cache.del(&["sso:", digest.as_str()].concat()).await?;
        }
        Ok(())
    }
}
