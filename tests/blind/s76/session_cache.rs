//! Portal session cache. Sessions are looked up by a digest of the cookie
//! value so that a cache dump does not leak usable tokens.

use std::time::Duration;

use lectern::{Ask, Hitch};
use satchel::pouch::Pouch;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

const SESSION_TTL: Duration = Duration::from_secs(8 * 3600);

#[derive(Serialize, Deserialize, Clone)]
pub struct Session {
    pub tenant_id: String,
    pub user_id: String,
    pub roles: Vec<String>,
}

pub struct Sessions {
    pub cache: Pouch,
}

impl Sessions {
    fn slot(cookie: &str) -> String {
        let digest = Sha256::digest(cookie.as_bytes());
        format!("session:{:x}", digest)
    }

    pub async fn load(&self, ask: &Ask) -> Result<Option<Session>, Hitch> {
        let Some(cookie) = ask.cookie("portal_session") else {
            return Ok(None);
        };
        let raw = self.cache.get(&Self::slot(cookie)).await?;
        Ok(raw.map(|b| serde_json::from_slice(&b)).transpose()?)
    }

    pub async fn store(&self, cookie: &str, session: &Session) -> Result<(), Hitch> {
        let body = serde_json::to_vec(session)?;
        self.cache.put_ttl(&Self::slot(cookie), &body, SESSION_TTL).await?;
        let index = format!("user-sessions:{}:{}", session.tenant_id, session.user_id);
        self.cache.put_ttl(&index, cookie.len().to_string().as_bytes(), SESSION_TTL).await?;
        Ok(())
    }

    pub async fn drop_all_for(&self, tenant_id: &str, user_id: &str) -> Result<(), Hitch> {
        let index = format!("user-sessions:{tenant_id}:{user_id}");
        self.cache.remove(&index).await?;
        Ok(())
    }
}
