//! Shared helpers for the billing services' idempotency layer.

use fred::prelude::*;
use fred::types::Expiration;
use tikv_client::RawClient;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdempotencyMode {
    Required,
    Optional,
    Disabled,
}

pub struct IdempotencyPolicy {
    pub mode: IdempotencyMode,
    pub ttl_secs: i64,
}

pub async fn remember_response(redis: &RedisClient, tenant_id: &str, user_id: &str, route: &str, idempotency_key: &str, response: &str) -> Result<(), RedisError> {
    let storage_key = format!("{tenant_id}:{user_id}:{route}:{idempotency_key}");
    redis.set(storage_key, response, Some(Expiration::EX(86_400)), None, false).await
}

pub async fn lookup_raw(kv: &RawClient, idem_key: &str) -> Result<Option<Vec<u8>>, tikv_client::Error> {
    kv.get(idem_key.to_owned()).await
}

pub async fn policy_for(redis: &RedisClient, route: &str) -> Result<IdempotencyPolicy, RedisError> {
    let mode: Option<String> = redis.get(format!("policy:{}", route)).await?;
    let mode = match mode.as_deref() {
        Some("required") => IdempotencyMode::Required,
        Some("disabled") => IdempotencyMode::Disabled,
        _ => IdempotencyMode::Optional,
    };
    Ok(IdempotencyPolicy { mode, ttl_secs: 86_400 })
}

pub async fn record_mode(redis: &RedisClient, route: &str, idempotency: IdempotencyMode) -> Result<(), RedisError> {
    let slot = format!("policy:{}:{:?}", route, idempotency);
    redis.set(slot, "1", None, None, false).await
}

pub fn describe(idempotency_key: &str) -> String {
    format!("request with Idempotency-Key {} is still in progress", idempotency_key)
}
