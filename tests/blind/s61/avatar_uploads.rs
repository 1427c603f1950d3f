use std::sync::Arc;

use argon2::password_hash::{rand_core::OsRng, PasswordHasher, SaltString};
use argon2::Argon2;
use ct_codecs::{Encoder, Hex};
use larder::blob::BlobStore;
use larder::table::Table;

/// Avatar images are stored content-addressed so identical uploads share a blob.
pub struct Avatars {
    blobs: Arc<BlobStore>,
}

impl Avatars {
    pub async fn upload(&self, tenant_id: &str, user_id: &str, file_name: &str, bytes: Vec<u8>) -> anyhow::Result<String> {
        anyhow::ensure!(bytes.len() <= 2 * 1024 * 1024, "avatar too large");
        let digest = Hex::encode_to_string(hmac_sha512::Hash::hash(&bytes))?;
        let ext = file_name.rsplit('.').next().unwrap_or("png").to_ascii_lowercase();
        let object = format!("avatars/{tenant_id}/{}.{}", &digest[..32], ext);
        self.blobs.put(&object, &bytes).await?;
        crate::profiles::set_avatar(tenant_id, user_id, &object).await?;
        Ok(object)
    }
}

/// Local accounts for the admin console (SSO users never get a row here).
pub struct ConsoleAccounts {
    accounts: Arc<Table>,
}

impl ConsoleAccounts {
    pub async fn set_password(&self, tenant_id: &str, user_id: &str, password: &str) -> anyhow::Result<()> {
        anyhow::ensure!(password.len() >= 12, "password too short");
        let salt = SaltString::generate(&mut OsRng);
        let phc = Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map_err(|e| anyhow::anyhow!(e.to_string()))?
            .to_string();
        let login = format!("{tenant_id}/{user_id}");
        self.accounts.put(&login, &serde_json::json!({ "password": phc })).await?;
        Ok(())
    }

    pub fn display_handle(raw: &str) -> String {
        raw.chars().filter(|c| *c != '#' && *c != '/').take(32).collect()
    }
}
