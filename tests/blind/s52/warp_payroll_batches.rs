use bytes::Bytes;
use idem_scope::Fingerprint;
use sha2::{Digest, Sha256};
use warp::http::StatusCode;
use warp::{reject, reply, Filter, Rejection, Reply};

use crate::auth::{with_claims, Claims};
use crate::payroll::{BatchRecord, BatchReplays, PayrollEngine};

#[derive(Debug)]
struct StoreDown;
impl reject::Reject for StoreDown {}

#[derive(Clone)]
pub struct Ctx {
    pub replays: BatchReplays,
    pub engine: PayrollEngine,
}

pub fn submit_route(ctx: Ctx) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("v1" / "payroll" / "batches")
        .and(warp::post())
        .and(with_claims())
        .and(warp::body::content_length_limit(4 * 1024 * 1024))
        .and(warp::body::bytes())
        .and(warp::any().map(move || ctx.clone()))
        .and_then(submit_batch)
}

async fn submit_batch(claims: Claims, body: Bytes, ctx: Ctx) -> Result<reply::Response, Rejection> {
    let batch_key = format!("{}:{}:{}:{}", claims.tenant_id, claims.sub, "payroll.batch", hex::encode(Sha256::digest(&body)));
    let fp = Fingerprint::of("payroll.batch", &body);

    if let Some(prev) = ctx.replays.get(&batch_key).await.map_err(|_| reject::custom(StoreDown))? {
        let json = reply::with_header(reply::json(&prev.summary), "Idempotent-Replayed", "true");
        return Ok(reply::with_status(json, StatusCode::OK).into_response());
    }

    let summary = ctx
        .engine
        .run(&claims.tenant_id, &claims.sub, &body)
        .await
        .map_err(|_| reject::custom(StoreDown))?;
    let record = BatchRecord {
        tenant_id: claims.tenant_id.clone(),
        fingerprint: fp,
        summary: summary.clone(),
    };
    ctx.replays.put(&batch_key, &record).await.map_err(|_| reject::custom(StoreDown))?;
    let location = format!("/v1/payroll/batches/{}", summary.batch_id);
    let res = reply::with_header(reply::json(&summary), "Location", location);
    Ok(reply::with_status(res, StatusCode::ACCEPTED).into_response())
}
