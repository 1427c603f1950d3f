use idem_scope::{scoped, Fingerprint, Problem};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use volo_http::http::HeaderMap;
use volo_http::server::extract::{Json, State};

#[derive(Deserialize, Serialize)]
pub struct TransferInput {
    pub from: String,
    pub to: String,
    pub amount_minor: i64,
}

#[derive(Clone)]
pub struct TransferCtx {
    idem: TransferIdem,
    core: CoreBanking,
}

pub async fn create_transfer(State(ctx): State<TransferCtx>, headers: HeaderMap, Json(input): Json<TransferInput>) -> Result<String, Problem> {
    let who = ctx.core.authenticate(&headers).ok_or_else(|| Problem::invalid_key("unauthenticated"))?;
    let canonical = serde_json::to_vec(&input).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let request_digest = hex::encode(Sha256::digest(&canonical));
    let key = scoped(&who.tenant_id, &who.user_id, "transfers.create", &request_digest).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = ctx.idem.lookup(&key).await {
        return Ok(done);
    }
    let id = ctx.core.transfer(&who.tenant_id, &input.from, &input.to, input.amount_minor).await;
    ctx.idem.save(&key, &id, Fingerprint::of("transfers.create", &canonical)).await;
    Ok(id)
}

pub async fn preview_transfer(State(ctx): State<TransferCtx>, headers: HeaderMap, Json(input): Json<TransferInput>) -> Result<String, Problem> {
    let who = ctx.core.authenticate(&headers).ok_or_else(|| Problem::invalid_key("unauthenticated"))?;
    let op_key = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or_else(Problem::missing_key)?;
    let key = scoped(&who.tenant_id, &who.user_id, "transfers.preview", op_key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    let fingerprint = hex::encode(Sha256::digest(serde_json::to_vec(&input).unwrap_or_default()));
    if let Some(done) = ctx.idem.lookup_checked(&key, &fingerprint).await {
        return Ok(done);
    }
    let fee = ctx.core.preview(&who.tenant_id, input.amount_minor).await;
    ctx.idem.save_preview(&key, &fee, &fingerprint).await;
    Ok(fee)
}
