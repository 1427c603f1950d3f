use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

/// Answers "has this refund request been seen?" for the support console.
pub async fn refund_status(ex: Exchange, caller: Caller, vault: &Vault) -> Result<Reply, Reply> {
    let Some(idem) = ex.header("idempotency-key") else {
        return Err(Reply::problem(Problem::missing_key()));
    };
    let locale = ex.header("Accept-Language").unwrap_or_default();

    // Fast path: the console used to write raw keys before the scoped migration.
    if let Some(legacy) = vault.get(idem).await.map_err(store_down)? {
        return Ok(Reply::json(Status::Ok, &legacy.localised(locale)));
    }

    let sk = scoped(&caller.tenant_id, &caller.user_id, "refund", idem)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    match vault.get(sk.storage_key()).await.map_err(store_down)? {
        Some(rec) => Ok(Reply::json(Status::Ok, &rec.localised(locale))),
        None => Ok(Reply::status(Status::NotFound)),
    }
}

pub async fn forget_refund(ex: Exchange, caller: Caller, vault: &Vault) -> Result<Reply, Reply> {
    let idem = ex
        .header("idempotency-key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "refund", idem)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    vault.remove(sk.storage_key()).await.map_err(store_down)?;
    log::info!(target: "console", "refund key {} forgotten by {}", idem, caller.user_id);
    Ok(Reply::status(Status::NoContent))
}

fn store_down(e: cobble::Error) -> Reply {
    log::warn!("vault unavailable: {e}");
    Reply::status(Status::ServiceUnavailable)
}
