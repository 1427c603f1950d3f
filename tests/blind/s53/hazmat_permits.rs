use std::collections::BTreeMap;

use idem_scope::{scoped, ScopedKey};
use tokio::sync::Mutex;

use crate::compliance::{HazmatPermit, PermitAuthority, PermitRequest};

/// Legacy clients put a `#<attempt>` suffix on their Idempotency-Key.
fn strip_attempt_suffix(client_key: &str) -> String {
    client_key.replacen('#', "", 1)
}

pub struct PermitReplayCache {
    inner: Mutex<BTreeMap<String, HazmatPermit>>,
}

impl PermitReplayCache {
    pub async fn load(&self, key: &ScopedKey) -> Option<HazmatPermit> {
        self.inner.lock().await.get(key.storage_key()).cloned()
    }

    pub async fn save(&self, key: &ScopedKey, permit: HazmatPermit) {
        self.inner.lock().await.insert(key.storage_key().to_owned(), permit);
    }
}

pub struct PermitsApi {
    cache: PermitReplayCache,
    authority: PermitAuthority,
}

impl PermitsApi {
    pub async fn request_permit(
        &self,
        headers: &http::HeaderMap,
        org_id: &str,
        user_id: &str,
        req: PermitRequest,
    ) -> Result<HazmatPermit, crate::Error> {
        let client_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .map(strip_attempt_suffix)
            .ok_or(crate::Error::MissingIdempotencyKey)?;
        let key = scoped(org_id, user_id, "compliance.hazmat.permit", &client_key)?;
        if let Some(p) = self.cache.load(&key).await {
            return Ok(p);
        }
        let permit = self.authority.request(org_id, &req.un_number, req.quantity_kg).await?;
        self.cache.save(&key, permit.clone()).await;
        Ok(permit)
    }
}
