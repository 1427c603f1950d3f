use cobble::vault::Vault;
use idem_scope::{scoped, Problem, ScopeError, ScopedKey};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

pub enum Format {
    Csv,
    Parquet,
}

pub async fn export(ex: Exchange, caller: Caller, fmt: Format, vault: &Vault, jobs: &crate::exports::Jobs) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let keyer = |k: &str| -> Result<ScopedKey, ScopeError> { scoped(&caller.org_id, &caller.user_id, "default", k) };
    let sk = keyer(raw).map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    if let Some(job) = vault.get(sk.storage_key()).await.map_err(|_| down())? {
        return Ok(Reply::bytes(Status::Ok, job));
    }
    let job_id = match fmt {
        Format::Csv => jobs.start_csv(&caller.org_id).await,
        Format::Parquet => jobs.start_parquet(&caller.org_id).await,
    }
    .map_err(|_| down())?;
    vault.put(sk.storage_key(), job_id.as_bytes()).await.map_err(|_| down())?;
    Ok(Reply::text(Status::Accepted, job_id))
}

pub async fn cancel_export(ex: Exchange, caller: Caller, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let keyer = |route: &str| scoped(&caller.org_id, &caller.user_id, route, raw);
    let sk = keyer("export.cancel").map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    vault.put(sk.storage_key(), b"cancelled").await.map_err(|_| down())?;
    Ok(Reply::status(Status::Accepted))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
