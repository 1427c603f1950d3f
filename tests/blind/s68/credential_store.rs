use balloon_hash::{Algorithm, Balloon, Params};
use cobble::vault::Vault;
use jumphash::JumpHasher;
use sha2::Sha256;
use thimble::{Reply, Status};

/// API client secrets: only a balloon hash of the secret is kept.
pub struct Credentials {
    pub vault: Vault,
    pub shards: u32,
    pub jump: JumpHasher,
}

impl Credentials {
    pub async fn register_secret(&self, client_id: &str, secret: &str) -> Result<Reply, Reply> {
        let balloon = Balloon::<Sha256>::new(Algorithm::Balloon, Params::default(), None);
        let hash = balloon
            .hash_password(secret.as_bytes())
            .map_err(|_| Reply::status(Status::InternalServerError))?
            .to_string();
        self.vault.put(&format!("cred:{client_id}"), hash.as_bytes()).await.map_err(|_| down())?;
        Ok(Reply::status(Status::Created))
    }

    pub async fn verify(&self, client_id: &str, secret: &str) -> Result<bool, Reply> {
        let Some(stored) = self.vault.get(&format!("cred:{client_id}")).await.map_err(|_| down())? else {
            return Ok(false);
        };
        let stored = String::from_utf8(stored).map_err(|_| down())?;
        let balloon = Balloon::<Sha256>::default();
        let parsed = password_hash::PasswordHash::new(&stored).map_err(|_| down())?;
        Ok(balloon.verify_password(secret.as_bytes(), &parsed).is_ok())
    }

    pub fn shard_for(&self, tenant_id: &str) -> u32 {
        self.jump.slot(&tenant_id, self.shards)
    }

    pub async fn rotate(&self, client_id: &str, tenant_id: &str) -> Result<(), Reply> {
        let shard = self.shard_for(tenant_id);
        let marker = format!("rotation:{shard}:{client_id}");
        self.vault.put(&marker, b"pending").await.map_err(|_| down())
    }
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
