use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use idem_scope::scoped;
use redis::aio::ConnectionManager;

use crate::auth::Operator;
use crate::bank::{BankGateway, WireInstruction};

const LEASE_MS: u64 = 30_000;
const TTL_MS: u64 = 86_400_000;

#[derive(Clone)]
pub struct WireState {
    pub redis: ConnectionManager,
    pub bank: BankGateway,
}

pub async fn release_wire(
    State(st): State<WireState>,
    op: Operator,
    headers: HeaderMap,
    body: Bytes,
) -> Result<(StatusCode, String), StatusCode> {
    let idem = headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .ok_or(StatusCode::BAD_REQUEST)?;
    let key = scoped(&op.tenant_id, &op.user_id, "wire.release", idem).map_err(|_| StatusCode::BAD_REQUEST)?;
    let mut con = st.redis.clone();

    let claimed: Option<String> = redis::cmd("SET").arg(key.storage_key()).arg("in_progress").arg("NX").arg("PX").arg(LEASE_MS).query_async(&mut con).await.map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
    if claimed.is_none() {
        let prior: Option<String> = redis::cmd("GET")
            .arg(key.storage_key())
            .query_async(&mut con)
            .await
            .map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
        return match prior.as_deref() {
            Some("in_progress") | None => Err(StatusCode::CONFLICT),
            Some(done) => Ok((StatusCode::OK, done.to_owned())),
        };
    }

    let instruction: WireInstruction = serde_json::from_slice(&body).unwrap();
    let confirmation = st.bank.release(&op.tenant_id, instruction).await.map_err(|_| StatusCode::BAD_GATEWAY)?;
    let rendered = serde_json::to_string(&confirmation).map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?;
    redis::cmd("SET")
        .arg(key.storage_key())
        .arg(&rendered)
        .arg("PX")
        .arg(TTL_MS)
        .query_async::<()>(&mut con)
        .await
        .map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
    Ok((StatusCode::CREATED, rendered))
}
