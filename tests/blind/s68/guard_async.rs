use std::sync::Arc;
use std::time::Duration;

use cobble::vault::Vault;
use idem_scope::{scoped, ClaimGuard, Problem};
use thimble::auth::Caller;
use thimble::extract::Json;
use thimble::{Exchange, Reply, Status};

#[derive(serde::Deserialize, serde::Serialize)]
pub struct Transfer {
    pub to: String,
    pub amount_minor: u64,
}

fn release_later(vault: Arc<Vault>, key: String) -> impl FnOnce() {
    move || {
        std::thread::spawn(move || {
            let _ = vault.release_blocking(&key);
        });
    }
}

pub async fn send_money(ex: Exchange, caller: Caller, Json(t): Json<Transfer>, vault: Arc<Vault>, rails: &crate::rails::Rails) -> Result<Reply, Reply> {
    let raw = ex.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "money.send", raw).map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    let key = sk.storage_key().to_owned();
    vault.acquire(&key, Duration::from_secs(90)).await.map_err(|_| Reply::status(Status::Conflict))?;
    let guard = ClaimGuard::new(release_later(vault.clone(), key.clone()));
    let receipt = rails.send(&caller.tenant_id, &t.to, t.amount_minor).await.map_err(|_| Reply::status(Status::BadGateway))?;
    let reply = Reply::json(Status::Created, &receipt);
    vault.commit(&key, &reply.snapshot()).await.map_err(|_| Reply::status(Status::ServiceUnavailable))?;
    guard.complete();
    Ok(reply)
}

pub async fn request_money(ex: Exchange, caller: Caller, Json(t): Json<Transfer>, vault: Arc<Vault>, rails: &crate::rails::Rails) -> Result<Reply, Reply> {
    let raw = ex.header("Idempotency-Key").ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "money.request", raw).map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    vault.acquire(sk.storage_key(), Duration::from_secs(90)).await.map_err(|_| Reply::status(Status::Conflict))?;
    let outcome = async { rails.request(&caller.tenant_id, &t.to, t.amount_minor).await.map(|r| Reply::json(Status::Created, &r)) }
        .await
        .or_else(|e| {
            let v = vault.clone();
            let k = sk.storage_key().to_owned();
            std::thread::spawn(move || v.release_blocking(&k));
            Err(Reply::text(Status::BadGateway, e.to_string()))
        });
    let reply = outcome?;
    if vault.commit(sk.storage_key(), &reply.snapshot()).await.is_err() {
        vault.release(sk.storage_key()).await.ok();
    }
    Ok(reply)
}
