//! Session cache for the station websites: sessions are looked up by the
//! SHA-256 of the cookie value so that a cache dump never contains usable
//! cookies.

use std::time::Duration;

use sha2::{Digest, Sha256};
use spool::cart::Cart;

pub struct SessionCache {
    cart: Cart,
    ttl: Duration,
}

#[derive(serde::Serialize, serde::Deserialize)]
pub struct SessionRecord {
    pub tenant_id: String,
    pub user_id: String,
    pub roles: Vec<String>,
}

impl SessionCache {
    pub async fn load(&self, cookie: &str) -> Result<Option<SessionRecord>, spool::Error> {
        let digest = hex::encode(Sha256::digest(cookie.as_bytes()));
        self.cart.get_as(&digest).await
    }

    pub async fn store(&self, cookie: &str, record: &SessionRecord) -> Result<(), spool::Error> {
        let cookie_digest = hex::encode(Sha256::digest(cookie.as_bytes()));
        self.cart.put_ttl(&cookie_digest, &serde_json::to_vec(record).unwrap_or_default(), self.ttl).await?;
        let index = format!("user-sessions:{}:{}", record.tenant_id, record.user_id);
        self.cart.append(&index, cookie_digest.as_bytes()).await
    }
}
