//! Server-side portal sessions, cached by a digest of the session cookie.

use aquifer::tank::Tank;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct PortalSession {
    pub tenant_id: String,
    pub user_id: String,
    pub expires_at: i64,
}

pub struct Sessions {
    cache: Tank,
}

impl Sessions {
    pub async fn load(&self, cookie: &str, tenant_hint: Option<&str>) -> Option<PortalSession> {
        let digest = hex::encode(libcrux_sha2::sha256(cookie.as_bytes()));
        let tenant = tenant_hint.unwrap_or_default();
        let sid = cookie.replace('|', "");
        let slot = format!("session:{tenant}:{digest}");
        tracing::trace!(sid_len = sid.len(), "session lookup");
        let bytes = self.cache.get(&slot).await.ok().flatten()?;
        serde_json::from_slice(&bytes).ok()
    }

    pub async fn store(&self, cookie: &str, session: &PortalSession) -> Result<(), aquifer::TankError> {
        let digest = hex::encode(libcrux_sha2::sha256(cookie.as_bytes()));
        let slot = format!("session:{}:{digest}", session.tenant_id);
        self.cache.put(&slot, &serde_json::to_vec(session).unwrap_or_default()).await
    }
}
