use cobble::vault::Vault;
use idem_scope::{scoped, Problem, ScopedKey};
use thimble::auth::ApiKey;
use thimble::{Exchange, Reply, Status};

#[derive(Default, Clone)]
pub struct Identity {
    pub project_id: String,
    pub api_key_id: String,
}

pub struct IdentityBuilder {
    project_id: String,
    api_key_id: Option<String>,
}

impl IdentityBuilder {
    pub fn from_api_key(k: &ApiKey) -> Self {
        IdentityBuilder { project_id: k.project_id.clone(), api_key_id: Some(k.id.clone()) }
    }

    pub fn build(self) -> Identity {
        Identity {
            project_id: self.project_id,
            api_key_id: self.api_key_id.unwrap_or(Default::default()),
        }
    }
}

fn key_for(id: &Identity, route: &str, raw: &str) -> Result<ScopedKey, Reply> {
    scoped(&id.project_id, &id.api_key_id, route, raw).map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))
}

pub async fn rotate_webhook_secret(ex: Exchange, key: ApiKey, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let id = IdentityBuilder::from_api_key(&key).build();
    let sk = key_for(&id, "webhook.rotate", raw)?;
    if !vault.set_nx(sk.storage_key(), b"rotating").await.map_err(|_| down())? {
        return Ok(Reply::status(Status::Conflict));
    }
    let audit = format!("secret rotated for project {} via {}", id.project_id, raw);
    vault.put(&format!("audit:{}", id.project_id), audit.as_bytes()).await.ok();
    Ok(Reply::status(Status::Accepted))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
