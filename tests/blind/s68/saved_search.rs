use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::MaybeCaller;
use thimble::{Exchange, Reply, Status};

pub struct SearchSaver<'a> {
    vault: &'a Vault,
}

impl<'a> SearchSaver<'a> {
    pub fn new(vault: &'a Vault) -> Self {
        SearchSaver { vault }
    }

    pub async fn save(&self, ex: Exchange, who: MaybeCaller, query: String) -> Result<Reply, Reply> {
        let raw = ex
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
        let tenant = who.tenant_id.clone().ok_or_else(|| Reply::status(Status::Unauthorized))?;
        let principal = who.user_id.clone().unwrap_or_else(|| "anonymous".to_string());
        let sk = scoped(&tenant, &principal, "search.save", raw)
            .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
        if self.vault.exists(sk.storage_key()).await.map_err(|_| down())? {
            return Ok(Reply::status(Status::Ok));
        }
        self.vault.put(sk.storage_key(), query.as_bytes()).await.map_err(|_| down())?;
        Ok(Reply::status(Status::Created))
    }

    pub async fn recent(&self, who: MaybeCaller) -> Result<Reply, Reply> {
        let viewer = who.user_id.clone().unwrap_or_else(|| "anonymous".to_string());
        log::debug!("recent searches requested by {viewer}");
        let tenant = who.tenant_id.ok_or_else(|| Reply::status(Status::Unauthorized))?;
        let rows = self.vault.get(&format!("recent-searches:{tenant}")).await.map_err(|_| down())?;
        Ok(Reply::json(Status::Ok, &rows))
    }
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
