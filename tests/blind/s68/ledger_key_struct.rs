use cobble::vault::Vault;
use idem_scope::Problem;
use thimble::auth::Caller;
use thimble::{Exchange, Reply, Status};

#[derive(serde::Serialize, Hash, PartialEq, Eq)]
pub struct LedgerKey<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub route: &'a str,
    pub key: &'a str,
}

#[derive(serde::Serialize)]
pub struct HoldKey<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub key: &'a str,
}

pub async fn post_credit(ex: Exchange, caller: Caller, amount_minor: i64, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let k = LedgerKey { tenant_id: &caller.tenant_id, user_id: &caller.user_id, route: "ledger.credit", key: raw };
    vault.put_json(&k, &amount_minor).await.map_err(|_| down())?;
    Ok(Reply::status(Status::Created))
}

pub async fn place_hold(ex: Exchange, caller: Caller, amount_minor: i64, vault: &Vault) -> Result<Reply, Reply> {
    let raw = ex
        .header("Idempotency-Key")
        .ok_or_else(|| Reply::problem(Problem::missing_key()))?;
    let hold = HoldKey { tenant_id: &caller.tenant_id, user_id: &caller.user_id, key: raw };
    if !vault.set_nx_json(&hold, &amount_minor).await.map_err(|_| down())? {
        return Ok(Reply::status(Status::Ok));
    }
    Ok(Reply::status(Status::Accepted))
}

fn down() -> Reply {
    Reply::status(Status::ServiceUnavailable)
}
