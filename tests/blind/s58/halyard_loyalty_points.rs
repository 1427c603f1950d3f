use cairn::kv::Bucket;
use cairn::sql::Pool;
use halyard::{Ctx, Json, Reply};
use serde::Deserialize;
use std::hash::Hasher;
use zwohash::ZwoHasher;

const SHARDS: u64 = 16;

#[derive(Deserialize)]
pub struct RedeemInput {
    points: u32,
    reward_id: String,
}

pub struct Loyalty {
    shards: Vec<Bucket>,
    pool: Pool,
}

impl Loyalty {
    fn shard_for(&self, tenant_id: &str) -> &Bucket {
        let mut h = ZwoHasher::default();
        h.write(tenant_id.as_bytes());
        &self.shards[(h.finish() % SHARDS) as usize]
    }
}

pub async fn redeem(ctx: Ctx, Json(input): Json<RedeemInput>) -> Result<Reply, halyard::Error> {
    let loyalty = ctx.state::<Loyalty>();
    let caller = ctx.caller().ok_or(halyard::Error::Unauthorized)?;
    let client_key = ctx.header("Idempotency-Key").ok_or(halyard::Error::BadRequest("missing key"))?;
    let tenant = caller.tenant_id.as_str();
    let user_id = caller.user_id.as_str();
    let route = "loyalty.redeem";

    let make_key = |k: &str| format!("{tenant}\u{1f}{user_id}\u{1f}{route}\u{1f}{k}");
    let key = make_key(client_key);
    let store = loyalty.shard_for(tenant);
    if let Some(prev) = store.get(&key).await.map_err(|_| halyard::Error::Internal)? {
        return Ok(Reply::bytes(200, prev));
    }

    let mut tx = loyalty.pool.begin().await.map_err(|_| halyard::Error::Internal)?;
    tx.execute("UPDATE balances SET points = points - $1 WHERE tenant_id = $2 AND user_id = $3", (input.points, tenant, user_id))
        .await
        .map_err(|_| halyard::Error::Conflict)?;
    tx.commit().await.map_err(|_| halyard::Error::Internal)?;

    let body = format!(r#"{{"redeemed":{},"reward":"{}"}}"#, input.points, input.reward_id);
    let _ = store.put(&key, body.as_bytes()).await;
    Ok(Reply::text(201, body))
}
