use cobble::vault::Vault;
use idem_scope::{scoped, ScopeError, ScopedKey};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

/// Collects the scope of a request step by step; handlers fill what they know.
#[derive(Default)]
pub struct KeyDraft {
    tenant: String,
    principal: String,
    route: String,
    key: String,
}

impl KeyDraft {
    pub fn tenant(mut self, t: &str) -> Self {
        self.tenant = t.to_owned();
        self
    }
    pub fn principal(mut self, p: &str) -> Self {
        self.principal = p.to_owned();
        self
    }
    pub fn route(mut self, r: &str) -> Self {
        self.route = r.to_owned();
        self
    }
    pub fn client_key(mut self, k: &str) -> Self {
        self.key = k.replace('\0', "");
        self
    }
    pub fn finish(self) -> Result<ScopedKey, ScopeError> {
        scoped(&self.tenant, &self.principal, &self.route, &self.key)
    }
}

pub async fn archive_thread(ex: Exchange, caller: Caller, thread_id: String, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex.header("Idempotency-Key").ok_or_else(|| Reply::status(Status::BadRequest))?;
    let sk = KeyDraft::default()
        .tenant(&caller.tenant_id)
        .principal(&caller.user_id)
        .route("thread.archive")
        .client_key(raw)
        .finish()
        .map_err(|_| Reply::status(Status::BadRequest))?;
    if !vault.set_nx(sk.storage_key(), thread_id.as_bytes()).await.map_err(|_| Reply::status(Status::ServiceUnavailable))? {
        return Ok(Reply::status(Status::Ok));
    }
    Ok(Reply::status(Status::Accepted))
}
