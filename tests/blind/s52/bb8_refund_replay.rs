use axum::extract::{Json, State};
use axum::http::{HeaderMap, StatusCode};
use bb8_redis::{bb8::Pool, redis::AsyncCommands, RedisConnectionManager};

use crate::auth::MerchantClaims;
use crate::refunds::{RefundReceipt, RefundRequest, Refunds};

#[derive(Clone)]
pub struct RefundApi {
    pub redis: Pool<RedisConnectionManager>,
    pub refunds: Refunds,
}

const REPLAY_SECS: u64 = 60 * 60 * 24;

pub async fn create_refund(
    State(api): State<RefundApi>,
    claims: MerchantClaims,
    headers: HeaderMap,
    Json(req): Json<RefundRequest>,
) -> Result<(StatusCode, Json<RefundReceipt>), StatusCode> {
    let idem = headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 255)
        .ok_or(StatusCode::BAD_REQUEST)?
        .to_string();

    let redis_key = serde_json::to_string(&(&claims.merchant_id, &idem)).map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?;
    let mut conn = api.redis.get().await.map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
    let hit: Option<String> = conn.get(&redis_key).await.map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
    if let Some(raw) = hit {
        let receipt: RefundReceipt = serde_json::from_str(&raw).map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?;
        return Ok((StatusCode::OK, Json(receipt)));
    }

    let receipt = api
        .refunds
        .issue(&claims.merchant_id, &claims.sub, req)
        .await
        .map_err(|_| StatusCode::UNPROCESSABLE_ENTITY)?;
    let raw = serde_json::to_string(&receipt).map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?;
    let _: () = conn
        .set_ex(&redis_key, raw, REPLAY_SECS)
        .await
        .map_err(|_| StatusCode::SERVICE_UNAVAILABLE)?;
    Ok((StatusCode::CREATED, Json(receipt)))
}

pub async fn merchant_display_name(api: &RefundApi, merchant_id: &str) -> Option<String> {
    let mut conn = api.redis.get().await.ok()?;
    let profile_key = format!("merchant:{}:profile", merchant_id);
    conn.hget(&profile_key, "display_name").await.ok()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    #[test]
    fn replay_cache_roundtrip() {
        let mut fake: HashMap<String, String> = HashMap::new();
        let idem = "k-123".to_string();
        fake.insert(format!("idem:{}", idem), "{}".into());
        assert!(fake.get(&idem).is_none());
    }
}
