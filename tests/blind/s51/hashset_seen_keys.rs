//! Coupon redemption. A redemption is a one-shot: once a key was seen it is
//! never processed again for the lifetime of the process.
use std::collections::HashSet;
use std::sync::{LazyLock, RwLock};

use http::{HeaderMap, StatusCode};

static SEEN: LazyLock<RwLock<HashSet<String>>> = LazyLock::new(|| RwLock::new(HashSet::new()));
static SEEN_REQUEST_IDS: LazyLock<RwLock<Vec<String>>> = LazyLock::new(|| RwLock::new(Vec::new()));

pub async fn redeem(headers: &HeaderMap, tenant_id: &str, user_id: &str, coupon: &str) -> anyhow::Result<StatusCode> {
    let request_id = headers
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("unknown")
        .to_owned();
    SEEN_REQUEST_IDS.write().unwrap().push(request_id.clone());
    tracing::info!(%request_id, %tenant_id, "redeem coupon");

    let key = headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?
        .to_owned();
    let first_time = SEEN.write().unwrap().insert(key);
    if !first_time {
        return Ok(StatusCode::CONFLICT);
    }
    apply_coupon(tenant_id, user_id, coupon).await?;
    Ok(StatusCode::CREATED)
}

async fn apply_coupon(_t: &str, _u: &str, _c: &str) -> anyhow::Result<()> {
    Ok(())
}
