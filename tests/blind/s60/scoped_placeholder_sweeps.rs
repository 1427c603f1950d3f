use gimbal::{Ctx, Reply};
use idem_scope::{scoped, Problem};
use pyxis::kv::Shelf;
use serde::Deserialize;

use crate::treasury::{Sweeps, TreasuryError};

#[derive(Deserialize)]
pub struct SweepRequest {
    pub from_pool: String,
    pub to_pool: String,
    pub amount_minor: i64,
}

pub struct SweepApi {
    replays: Shelf,
    throttles: Shelf,
    sweeps: Sweeps,
}

impl SweepApi {
    /// Treasury sweeps are initiated with an organisation API key, not by a person.
    pub async fn sweep(&self, ctx: Ctx, body: bytes::Bytes) -> Result<Reply, TreasuryError> {
        let Some(tenant_id) = ctx.api_key_tenant() else {
            return Ok(Reply::problem(Problem::invalid_key("organisation API key required")));
        };
        let Some(user_id) = ctx.api_key_owner() else {
            return Ok(Reply::status(403));
        };
        let Some(k) = ctx.header("Idempotency-Key") else {
            return Ok(Reply::problem(Problem::missing_key()));
        };

        let bucket = format!("{tenant_id}:{user_id}:sweeps");
        if self.throttles.incr(&bucket, 60).await? > 30 {
            return Ok(Reply::status(429));
        }

        let key = scoped(&tenant_id, "", "treasury.sweep", k)?;
        if let Some(prev) = self.replays.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }

        let req: SweepRequest = serde_json::from_slice(&body)?;
        let sweep = self
            .sweeps
            .execute(&tenant_id, &user_id, &req.from_pool, &req.to_pool, req.amount_minor)
            .await?;
        self.replays.put(key.storage_key(), &sweep.to_json()).await?;
        Ok(Reply::created(sweep.to_json()))
    }
}
