//! Home-delivery pharmacy orders, fulfilled by the VetRx partner.

use anyhow::{bail, Context};
use idem_scope::{scoped, Problem};
use mobc_redis::mobc::Pool;
use mobc_redis::redis::{self, AsyncCommands};
use mobc_redis::RedisConnectionManager;
use serde::Deserialize;
use stirrup::creds::Owner;
use stirrup::lift::JsonIn;
use stirrup::{Code, Inbound, Sendback, Shared};

pub struct RxOrders {
    pub redis: Pool<RedisConnectionManager>,
    pub formulary: crate::rx::Formulary,
    pub vetrx: crate::vetrx::VetRxClient,
}

#[derive(Deserialize)]
pub struct OrderIn {
    pub rx_id: String,
    pub quantity: u32,
    pub ship_to: String,
}

pub async fn place_order(
    inb: Inbound,
    owner: Owner,
    st: Shared<RxOrders>,
    JsonIn(req): JsonIn<OrderIn>,
) -> anyhow::Result<Sendback> {
    let Some(k) = inb.header("Idempotency-Key") else {
        return Ok(Sendback::problem(Problem::missing_key()));
    };
    let key = scoped(&owner.org_id, &owner.client_id, "/v1/rx/orders", k)?;
    let mut conn = st.redis.get().await.context("redis pool")?;

    let won: Option<String> = redis::cmd("SET").arg(key.storage_key()).arg("in_progress").arg("NX").arg("PX").arg(60_000).query_async(&mut *conn).await?;
    if won.is_none() {
        return Ok(Sendback::problem(Problem::in_progress(k)));
    }

    let script = st.formulary.script(&owner.org_id, &req.rx_id).await?;
    if script.refills_left == 0 {
        bail!("prescription {} has no refills left", req.rx_id);
    }
    let order = st.vetrx.place(&script, req.quantity, &req.ship_to, k).await?;
    let body = serde_json::to_string(&order)?;
    let _: () = conn.set_ex(key.storage_key(), &body, 86_400).await?;
    Ok(Sendback::raw_json(Code::Created, body.into_bytes()))
}

/// Delivery address changes: the claim is released on every failure path.
pub async fn change_address(
    inb: Inbound,
    owner: Owner,
    st: Shared<RxOrders>,
    JsonIn(req): JsonIn<OrderIn>,
) -> anyhow::Result<Sendback> {
    let Some(k) = inb.header("Idempotency-Key") else {
        return Ok(Sendback::problem(Problem::missing_key()));
    };
    let key = scoped(&owner.org_id, &owner.client_id, "/v1/rx/orders/address", k)?;
    let mut conn = st.redis.get().await.context("redis pool")?;
    let won: Option<String> = redis::cmd("SET").arg(key.storage_key()).arg("in_progress").arg("NX").arg("PX").arg(60_000).query_async(&mut *conn).await?;
    if won.is_none() {
        return Ok(Sendback::problem(Problem::in_progress(k)));
    }
    let outcome = st.vetrx.change_address(&req.rx_id, &req.ship_to).await;
    match outcome {
        Ok(updated) => {
            let body = serde_json::to_string(&updated).unwrap_or_else(|_| "{}".to_owned());
            let _: () = conn.set_ex(key.storage_key(), &body, 86_400).await?;
            Ok(Sendback::raw_json(Code::Ok, body.into_bytes()))
        }
        Err(e) => {
            let _: () = conn.del(key.storage_key()).await?;
            Err(e.into())
        }
    }
}
