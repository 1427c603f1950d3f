use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::MaybeCaller;
use thimble::extract::Json;
use thimble::{Exchange, Reply, Status};

#[derive(serde::Deserialize, serde::Serialize)]
pub struct TransferReq {
    pub from_account: String,
    pub to_account: String,
    pub amount_minor: i64,
}

pub async fn transfer(
    ex: Exchange,
    who: MaybeCaller,
    Json(req): Json<TransferReq>,
    vault: &Vault,
) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .map(str::trim)
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;

    // Partner integrations call this without a tenant header during onboarding.
    let tenant = who.tenant_id.clone().unwrap_or_default();
    let user = who
        .user_id
        .clone()
        .ok_or_else(|| Reply::status(Status::Unauthorized))?;

    let sk = scoped(&tenant, &user, "transfer", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;

    if let Some(done) = vault.get(sk.storage_key()).await.map_err(|_| busy())? {
        return Ok(Reply::from_stored(done));
    }
    vault
        .put(sk.storage_key(), serde_json::to_vec(&req).unwrap_or_default())
        .await
        .map_err(|_| busy())?;
    Ok(Reply::status(Status::Accepted))
}

fn busy() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
