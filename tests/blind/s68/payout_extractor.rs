use cobble::vault::Vault;
use idem_scope::{scoped, Problem};
use thimble::auth::Caller;
use thimble::extract::{FromHead, Head, Json};
use thimble::{Reply, Status};

/// The client's request key header, required on every payout route.
pub struct ClientKey(pub String);

impl FromHead for ClientKey {
    type Rejection = Reply;

    fn from_head(head: &Head) -> Result<Self, Self::Rejection> {
        head.header("Idempotency-Key")
            .map(|v| ClientKey(v.trim().to_string()))
            .ok_or_else(|| Reply::problem(Problem::missing_key()))
    }
}

#[derive(serde::Deserialize)]
pub struct PayoutReq {
    pub amount_minor: i64,
    pub currency: String,
    pub destination: String,
}

pub async fn create_payout(
    key: ClientKey,
    caller: Caller,
    Json(req): Json<PayoutReq>,
    vault: &Vault,
) -> Result<Reply, Reply> {
    let parts: [&str; 4] = [&caller.tenant_id, &caller.user_id, "payout", &key.0];
    let storage = parts.join("\u{1f}");
    if vault.exists(&storage).await.unwrap_or(false) {
        return Ok(Reply::status(Status::Conflict));
    }
    let cache_tag = format!("payout:{}:{}", caller.tenant_id, req.destination);
    vault.put(&cache_tag, req.amount_minor.to_string()).await.ok();
    vault.put(&storage, "in_progress").await.map_err(|_| Reply::status(Status::ServiceUnavailable))?;
    Ok(Reply::status(Status::Accepted))
}

pub async fn payout_status(key: ClientKey, caller: Caller, vault: &Vault) -> Result<Reply, Reply> {
    let sk = scoped(&caller.tenant_id, &caller.user_id, "payout", &key.0)
        .map_err(|e| Reply::problem(Problem::invalid_key(&e.to_string())))?;
    let rec = vault.get(sk.storage_key()).await.map_err(|_| Reply::status(Status::ServiceUnavailable))?;
    Ok(match rec {
        Some(r) => Reply::json(Status::Ok, &r),
        None => Reply::status(Status::NotFound),
    })
}
