use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use serde::{Deserialize, Serialize};
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

pub trait DedupToken {
    fn dedup_token(&self) -> String;
}

#[derive(Deserialize, Serialize)]
pub struct PaymentLinkReq {
    pub amount_minor: i64,
    pub currency: String,
    pub description: String,
}

impl DedupToken for PaymentLinkReq {
    fn dedup_token(&self) -> String {
        let canonical = serde_json::to_vec(self).unwrap_or_default();
        let digest = libcrux_sha3::sha256(&canonical);
        digest.iter().map(|b| format!("{:02x}", b)).collect()
    }
}

#[derive(Clone)]
pub struct Links {
    pub vat: Arc<Vat>,
    pub issuer: Arc<links::Issuer>,
}

pub async fn create_link(ctx: Ctx, caller: Caller, State(l): State<Links>, Json(req): Json<PaymentLinkReq>) -> Result<Reply, Problem> {
    let token = match ctx.header("Idempotency-Key") {
        Some(k) => k.to_owned(),
        None => req.dedup_token(),
    };
    let sk = scoped(&caller.merchant_id, &caller.user_id, "create_link", &token).map_err(|e| Problem::invalid_key(&e.to_string()))?;

    if let Some(done) = l.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }
    let link = l.issuer.issue(&caller.merchant_id, req.amount_minor, &req.currency, &req.description).await;
    let _ = l.vat.put(sk.storage_key(), link.to_json()).await;
    Ok(Reply::bytes(Status::CREATED, link.to_json()))
}

pub async fn expire_link(ctx: Ctx, caller: Caller, State(l): State<Links>) -> Result<Reply, Problem> {
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let key_digest: String = libcrux_sha3::sha256(client_key.as_bytes()).iter().map(|b| format!("{:02x}", b)).collect();
    let sk = scoped(&caller.merchant_id, &caller.user_id, "expire_link", &key_digest).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = l.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done));
    }
    let ack = l.issuer.expire_latest(&caller.merchant_id).await;
    let _ = l.vat.put(sk.storage_key(), ack.to_json()).await;
    Ok(Reply::bytes(Status::OK, ack.to_json()))
}
