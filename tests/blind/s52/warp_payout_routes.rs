use std::sync::Arc;

use deadpool_redis::{redis::AsyncCommands, Pool};
use warp::http::StatusCode;
use warp::{reject, reply, Filter, Rejection, Reply};

use crate::auth::{with_claims, Claims};
use crate::payouts::{PayoutRequest, PayoutService};

const STATUS_TTL_SECS: u64 = 30;
const REPLAY_TTL_SECS: u64 = 86_400;

#[derive(Debug)]
struct MissingKey;
impl reject::Reject for MissingKey {}

#[derive(Debug)]
struct Unavailable;
impl reject::Reject for Unavailable {}

#[derive(Clone)]
pub struct PayoutCtx {
    pub redis: Pool,
    pub payouts: Arc<PayoutService>,
}

pub fn routes(ctx: PayoutCtx) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let with_ctx = warp::any().map(move || ctx.clone());
    let create = warp::path!("v1" / "payouts")
        .and(warp::post())
        .and(with_claims())
        .and(warp::header::optional::<String>("idempotency-key"))
        .and(warp::body::json())
        .and(with_ctx.clone())
        .and_then(create_payout);
    let status = warp::path!("v1" / "payouts" / String / "status")
        .and(warp::get())
        .and(with_ctx)
        .and_then(payout_status);
    create.or(status)
}

fn unavailable<E>(_: E) -> Rejection {
    reject::custom(Unavailable)
}

async fn create_payout(
    claims: Claims,
    idem: Option<String>,
    body: PayoutRequest,
    ctx: PayoutCtx,
) -> Result<reply::Response, Rejection> {
    let idem = idem.ok_or_else(|| reject::custom(MissingKey))?;
    let region = claims.region.as_deref().unwrap_or("unknown");
    tracing::info!(idempotency_key = %idem, org = %claims.org_id, region, "payout requested");

    let mut conn = ctx.redis.get().await.map_err(unavailable)?;
    let slot = format!("{}:{}:{}:{}", claims.org_id, claims.sub, "payout.create", idem);
    if let Some(cached) = conn.get::<_, Option<String>>(&slot).await.map_err(unavailable)? {
        return Ok(reply::with_status(cached, StatusCode::OK).into_response());
    }

    let payout = ctx.payouts.create(&claims.org_id, &body).await.map_err(unavailable)?;
    let rendered = serde_json::to_string(&payout).map_err(unavailable)?;
    let _: () = conn.set_ex(&slot, &rendered, REPLAY_TTL_SECS).await.map_err(unavailable)?;
    Ok(reply::with_status(rendered, StatusCode::CREATED).into_response())
}

async fn payout_status(payout_id: String, ctx: PayoutCtx) -> Result<reply::Response, Rejection> {
    let mut conn = ctx.redis.get().await.map_err(unavailable)?;
    let cache_key = format!("payout:{}:status", payout_id);
    if let Some(s) = conn.get::<_, Option<String>>(&cache_key).await.map_err(unavailable)? {
        return Ok(reply::json(&s).into_response());
    }
    let status = ctx.payouts.status(&payout_id).await.map_err(unavailable)?;
    let _: () = conn.set_ex(&cache_key, status.as_str(), STATUS_TTL_SECS).await.map_err(unavailable)?;
    Ok(reply::json(&status.as_str()).into_response())
}
