//! Pharmacy status lookups backed by the shared Redis cache.

use mobc_redis::mobc::Pool;
use mobc_redis::redis::{self, AsyncCommands};
use mobc_redis::RedisConnectionManager;
use serde::Serialize;
use stirrup::creds::Owner;
use stirrup::{Code, Fault, Inbound, Sendback, Shared};

const REFILL_ROUTE: &str = "/v1/rx/refills";

pub struct RxDesk {
    pub redis: Pool<RedisConnectionManager>,
}

#[derive(Serialize)]
struct StockLevel {
    sku: String,
    on_hand: i64,
}

/// `GET /v1/rx/refills/status`: the owner app polls with the same
/// `X-Idempotency-Key` it used when it asked for the refill.
pub async fn refill_status(inb: Inbound, owner: Owner, rx: Shared<RxDesk>) -> Result<Sendback, Fault> {
    let idem = inb
        .header("X-Idempotency-Key")
        .ok_or_else(|| Fault::bad_request("missing X-Idempotency-Key"))?;
    let mut conn = rx.redis.get().await?;
    let cached: Option<String> = redis::cmd("GET")
        .arg(format!("rx|{}|{}|{}|{}", owner.org_id, owner.client_id, REFILL_ROUTE, idem))
        .query_async(&mut *conn)
        .await?;
    match cached {
        Some(body) => Ok(Sendback::raw_json(Code::Ok, body.into_bytes())),
        None => Ok(Sendback::status(Code::NotFound)),
    }
}

/// Stock is cached per clinic and SKU; nothing here is client-keyed.
pub async fn stock_level(owner: Owner, rx: Shared<RxDesk>, sku: String) -> Result<Sendback, Fault> {
    let mut conn = rx.redis.get().await?;
    let on_hand: Option<i64> = conn.get(format!("rx|stock|{}|{}", owner.org_id, sku)).await?;
    let body = StockLevel { sku, on_hand: on_hand.unwrap_or(0) };
    Ok(Sendback::json(Code::Ok, &body))
}
