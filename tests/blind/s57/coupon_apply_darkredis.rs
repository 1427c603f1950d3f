use std::sync::Arc;

use corvid::{Ctx, Json, Reply};
use darkredis::{Command, ConnectionPool, Value};
use serde::Deserialize;

use crate::coupons::{CouponBook, Applied};

const LEASE_MS: &str = "120000";

#[derive(Deserialize)]
pub struct ApplyCoupon {
    pub cart_id: String,
    pub code: String,
}

pub struct CouponState {
    pub redis: ConnectionPool,
    pub book: Arc<CouponBook>,
}

async fn apply(state: &CouponState, tenant_id: &str, user_id: &str, client_key: &str, input: ApplyCoupon) -> eyre::Result<Applied> {
    let sk = idem_scope::scoped(tenant_id, user_id, "coupons.apply", client_key)?;
    let mut conn = state.redis.get().await;

    if let Some(done) = conn.get(sk.storage_key()).await? {
        if done != b"in_progress" {
            return Ok(serde_json::from_slice(&done)?);
        }
        eyre::bail!("request still in progress");
    }

    let reply = conn.run_command(Command::new("SET").arg(&sk.storage_key()).arg(b"in_progress").arg(b"NX").arg(b"PX").arg(&LEASE_MS)).await?;
    if reply != Value::Ok {
        eyre::bail!("request still in progress");
    }

    let code = input.code.trim().to_ascii_uppercase();
    let coupon = state.book.lookup(tenant_id, &code).await?;
    if coupon.expired() {
        eyre::bail!("coupon {} has expired", code);
    }
    let applied = state.book.apply(tenant_id, &input.cart_id, &coupon).await?;
    conn.set(sk.storage_key(), serde_json::to_vec(&applied)?).await?;
    Ok(applied)
}

pub async fn apply_coupon(ctx: Ctx<Arc<CouponState>>, Json(input): Json<ApplyCoupon>) -> Reply {
    let caller = ctx.caller()?;
    let Some(client_key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(400, "Idempotency-Key header is required");
    };
    match apply(ctx.state(), &caller.tenant_id, &caller.user_id, &client_key, input).await {
        Ok(applied) => Reply::json(200, &applied),
        Err(e) => {
            log::warn!("coupon apply failed for key {}: {e:#}", client_key);
            Reply::problem(422, &e.to_string())
        }
    }
}
