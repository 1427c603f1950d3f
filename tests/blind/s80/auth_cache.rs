//! Credential lookups for the portal and the machine APIs. Bearer tokens
//! are introspected at the identity provider and cached by digest; API keys
//! are stored only as SHA-256 digests.

use std::time::Duration;

use ballast::hold::Hold;
use hawser::pass::{Agent, Haulier};
use hawser::Snag;
use sha2::{Digest, Sha256};

pub struct Credentials {
    pub sessions: Hold,
    pub api_keys: Hold,
    pub idp: idp_client::Introspector,
}

impl Credentials {
    pub async fn agent_for_bearer(&self, bearer: &str) -> Result<Agent, Snag> {
        let digest = hex::encode(Sha256::digest(bearer.as_bytes()));
        let slot = format!("bearer:{digest}");
        if let Some(bytes) = self.sessions.get(&slot).await? {
            return serde_json::from_slice(&bytes).map_err(Snag::internal);
        }
        let agent = self.idp.introspect(bearer).await.map_err(|_| Snag::unauthorized())?;
        let ttl = Duration::from_secs(agent.expires_in.min(900));
        self.sessions.put_ttl(&slot, &serde_json::to_vec(&agent).map_err(Snag::internal)?, ttl).await?;
        Ok(agent)
    }

    pub async fn haulier_for_api_key(&self, presented: &str) -> Result<Haulier, Snag> {
        let stored = self.api_keys.get(&hex::encode(Sha256::digest(presented.as_bytes()))).await?;
        let Some(stored) = stored else {
            return Err(Snag::unauthorized());
        };
        serde_json::from_slice(&stored).map_err(Snag::internal)
    }

    pub async fn revoke_bearer(&self, bearer: &str) -> Result<(), Snag> {
        let slot = format!("bearer:{:x}", Sha256::digest(bearer.as_bytes()));
        self.sessions.del(&slot).await?;
        Ok(())
    }
}
