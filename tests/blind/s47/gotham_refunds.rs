use fred::prelude::*;
use fred::types::{Expiration, SetOptions};
use gotham::handler::HandlerError;
use gotham::hyper::{body, Body, HeaderMap, Response, StatusCode};
use gotham::state::{FromState, State};
use idem_scope::{scoped, Problem};
use serde::{Deserialize, Serialize};

#[derive(Clone, gotham_derive::StateData)]
pub struct RefundDeps {
    pub redis: RedisClient,
    pub locks: RedisClient,
    pub psp: PspClient,
}

#[derive(Deserialize)]
pub struct RefundRequest {
    pub charge_id: String,
    pub amount: u64,
}

#[derive(Serialize)]
pub struct RefundResult {
    pub refund_id: String,
}

#[derive(Clone)]
pub struct PspClient;

impl PspClient {
    pub async fn refund(&self, _r: &RefundRequest) -> Result<RefundResult, HandlerError> {
        unimplemented!()
    }
}

fn header(state: &State, name: &str) -> Option<String> {
    HeaderMap::borrow_from(state)
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

pub async fn refund(state: &mut State) -> Result<Response<Body>, HandlerError> {
    let deps = RefundDeps::borrow_from(state).clone();
    let tenant = header(state, "x-tenant-id").ok_or_else(|| bad(Problem::missing_key()))?;
    let principal = header(state, "x-principal-id").ok_or_else(|| bad(Problem::missing_key()))?;
    let idem = header(state, "idempotency-key").ok_or_else(|| bad(Problem::missing_key()))?;
    let sk = scoped(&tenant, &principal, "refunds.create", &idem).map_err(|_| bad(Problem::invalid_key("scope")))?;

    let raw = body::to_bytes(Body::take_from(state)).await?;
    let req: RefundRequest = serde_json::from_slice(&raw)?;

    let claimed: Option<String> = deps.redis.set(sk.storage_key(), "in_progress", Some(Expiration::EX(300)), Some(SetOptions::NX), true).await?;
    if claimed.is_some() {
        return Ok(conflict());
    }
    let result = deps.psp.refund(&req).await?;
    let encoded = serde_json::to_string(&result)?;
    deps.redis
        .set::<(), _, _>(sk.storage_key(), encoded.clone(), Some(Expiration::EX(86_400)), None, false)
        .await?;
    Ok(Response::builder().status(StatusCode::CREATED).body(Body::from(encoded))?)
}

pub async fn nightly_reconcile(deps: &RefundDeps) -> Result<(), HandlerError> {
    let got: Option<String> = deps.locks.set("job:refund-reconcile", "worker-1", Some(Expiration::EX(600)), Some(SetOptions::NX), true).await?;
    if got.is_some() {
        return Ok(());
    }
    reconcile_batch().await?;
    deps.locks.del::<i64, _>("job:refund-reconcile").await?;
    Ok(())
}

async fn reconcile_batch() -> Result<(), HandlerError> {
    Ok(())
}

fn bad(p: Problem) -> HandlerError {
    HandlerError::from(anyhow::anyhow!(p.to_json())).with_status(StatusCode::BAD_REQUEST)
}

fn conflict() -> Response<Body> {
    Response::builder()
        .status(StatusCode::CONFLICT)
        .body(Body::empty())
        .unwrap()
}
