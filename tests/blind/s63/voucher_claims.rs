use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use wherry::auth::Caller;
use wherry::extract::{Json, State};
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct VoucherReq {
    pub code: String,
}

#[derive(Clone)]
pub struct Vouchers {
    pub vat: Arc<Vat>,
    pub book: Arc<promo::VoucherBook>,
    pub wallet: Arc<promo::Wallet>,
}

pub async fn redeem_voucher(ctx: Ctx, caller: Caller, State(v): State<Vouchers>, Json(req): Json<VoucherReq>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "redeem_voucher", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = v.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }

    v.vat.claim(sk.storage_key()).await.map_err(|_| Problem::in_progress(key))?;
    let voucher = v.book.find_by_code(&caller.tenant_id, &req.code).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let credit = v.wallet.credit(&caller.user_id, voucher.value_minor).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let body = credit.to_json();
    let _ = v.vat.complete(sk.storage_key(), body.clone()).await;
    let audit_line = format!("voucher {} redeemed by {} with key {}", req.code, caller.user_id, key);
    tracing::info!(target: "audit", "{}", audit_line);
    Ok(Reply::bytes(Status::CREATED, body))
}

pub async fn void_voucher(ctx: Ctx, caller: Caller, State(v): State<Vouchers>, Json(req): Json<VoucherReq>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "void_voucher", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = v.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }

    v.vat.claim(sk.storage_key()).await.map_err(|_busy| Problem::in_progress(key))?;
    let outcome = v.book.void(&caller.tenant_id, &req.code).await;
    if let Err(e) = &outcome {
        tracing::warn!(error = %e, "voucher void failed, releasing claim");
        let _ = v.vat.release(sk.storage_key()).await;
    }
    let voided = outcome.map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let body = voided.to_json();
    let _ = v.vat.complete(sk.storage_key(), body.clone()).await;
    Ok(Reply::bytes(Status::OK, body))
}
