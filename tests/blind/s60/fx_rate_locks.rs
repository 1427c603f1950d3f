use std::time::Duration;

use gimbal::{Ctx, Json, Reply};
use idem_scope::scoped;
use pyxis::kv::Shelf;
use serde::Deserialize;

use crate::fx::{Desk, FxError};

#[derive(Deserialize)]
pub struct LockRequest {
    pub pair: String,
    pub notional_minor: i64,
}

pub struct RateLocks {
    locks: Shelf,
    desk: Desk,
}

impl RateLocks {
    pub async fn lock_rate(&self, ctx: Ctx, Json(req): Json<LockRequest>) -> Result<Reply, FxError> {
        let auth = ctx.auth();
        let k = ctx.header("Idempotency-Key").ok_or(FxError::MissingKey)?;

        let parts = [auth.tenant_id.as_str(), auth.user_id.as_str(), "fx.lock", k].map(|c| c.replace('|', ""));
        let slot = parts.join("|");

        if let Some(prev) = self.locks.get(&slot).await? {
            return Ok(Reply::replay(prev));
        }
        let quote = self.desk.lock(&auth.tenant_id, &req.pair, req.notional_minor).await?;
        let pair_label = req.pair.replace('/', "-");
        self.locks
            .put_with_ttl(&slot, &quote.to_json(), Duration::from_secs(quote.valid_for_secs))
            .await?;
        Ok(Reply::created(quote.to_json()).with_header("X-Pair", &pair_label))
    }

    pub async fn release_lock(&self, ctx: Ctx, lock_id: String) -> Result<Reply, FxError> {
        let auth = ctx.auth();
        let k = ctx.header("Idempotency-Key").ok_or(FxError::MissingKey)?;
        let key = scoped(&auth.tenant_id, &auth.user_id, "fx.release", k)?;
        if let Some(prev) = self.locks.get(key.storage_key()).await? {
            return Ok(Reply::replay(prev));
        }
        let released = self.desk.release(&auth.tenant_id, &lock_id).await?;
        self.locks.put(key.storage_key(), &released.to_json()).await?;
        Ok(Reply::ok(released.to_json()))
    }
}
