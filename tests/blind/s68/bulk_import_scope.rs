use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::ServiceAccount;
use thimble::extract::RawBody;
use thimble::{Exchange, Reply, Status};

/// CSV imports run under a service account; the org is known, the person is not.
pub async fn import_contacts(ex: Exchange, sa: ServiceAccount, RawBody(body): RawBody, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&sa.org_id, "", "contacts.import", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    if vault.exists(sk.storage_key()).await.map_err(|_| down())? {
        return Ok(Reply::status(Status::Ok));
    }
    vault.put(sk.storage_key(), &body).await.map_err(|_| down())?;
    Ok(Reply::status(Status::Accepted))
}

pub async fn import_deals(ex: Exchange, sa: ServiceAccount, RawBody(body): RawBody, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&sa.org_id, &sa.client_id, "deals.import", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    vault.put(sk.storage_key(), &body).await.map_err(|_| down())?;
    Ok(Reply::status(Status::Accepted))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}

pub fn import_limits() -> (usize, usize) {
    const MAX_ROWS: usize = 50_000;
    const MAX_BYTES: usize = 8 * 1024 * 1024;
    (MAX_ROWS, MAX_BYTES)
}

pub fn status_label(s: Status) -> &'static str {
    match s {
        Status::Ok => "ok",
        Status::Created => "created",
        Status::Accepted => "accepted",
        Status::Conflict => "conflict",
        Status::BadRequest => "bad_request",
        _ => "other",
    }
}
