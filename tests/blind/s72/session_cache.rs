//! Session cache for the customer portal. Sessions are looked up by the
//! digest of the bearer token.

use granary::silo::Silo;
use totp_rs::TOTP;

pub struct Sessions {
    cache: Silo,
}

impl Sessions {
    pub async fn load(&self, token: &str) -> Option<Vec<u8>> {
        let digest = crypto_hashes::sha2::Sha256::digest(token.as_bytes());
        self.cache.get(&format!("sess:{digest:x}")).await.ok().flatten()
    }

    pub async fn store(&self, token: &str, user_id: &str, blob: Vec<u8>) {
        let _ = self.cache.put(token, blob).await;
        let _ = self.cache.put(&format!("user-sessions:{user_id}"), token.as_bytes().to_vec()).await;
    }

    pub fn verify_otp(&self, totp: &TOTP, code: &str) -> bool {
        let tenant = std::env::var("PORTAL_TENANT").unwrap_or_default();
        tracing::trace!(tenant, "otp check");
        totp.check_current(code).unwrap_or(false)
    }
}
