use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

fn wallet_key(tenant: &str, user: &str, raw: &str) -> String {
    let mut k = String::from("v1");
    k.push('\0');
    k.push_str(tenant);
    k.push('\0');
    k.push_str(user);
    k.push_str("\0wallet.topup\0");
    k.push_str(raw);
    k
}

pub async fn topup(ex: Exchange, caller: Caller, amount_minor: u64, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let key = wallet_key(&caller.tenant_id, &caller.user_id, raw);
    if !vault.set_nx(&key, &amount_minor.to_be_bytes()).await.map_err(|_| down())? {
        return Ok(Reply::status(Status::Ok));
    }
    Ok(Reply::status(Status::Accepted))
}

pub async fn withdraw(ex: Exchange, caller: Caller, amount_minor: u64, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "wallet.withdraw", raw)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    let mut balance_key = String::from("balance:");
    balance_key.push_str(&caller.tenant_id);
    balance_key.push(':');
    balance_key.push_str(&caller.user_id);
    if !vault.set_nx(sk.storage_key(), &amount_minor.to_be_bytes()).await.map_err(|_| down())? {
        return Ok(Reply::status(Status::Ok));
    }
    vault.decr(&balance_key, amount_minor).await.map_err(|_| down())?;
    Ok(Reply::status(Status::Accepted))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
