use std::time::Duration;

use quillon::auth::Caller;
use quillon::{Bytes, Rejection, Reply};

use crate::replay_store::AsyncStore;

pub const POLICY_DDL: &str = "
CREATE TABLE IF NOT EXISTS idempotency_policies (
    tenant_id    VARCHAR(64) NOT NULL PRIMARY KEY,
    ttl_seconds  INTEGER     NOT NULL DEFAULT 86400,
    strict_parse BOOLEAN     NOT NULL DEFAULT FALSE
)";

pub struct Estimates {
    replays: AsyncStore,
    engine: crate::pricing::Engine,
}

impl Estimates {
    /// Shipping estimates are cheap but rate limited upstream, so identical
    /// requests from one user are answered from the replay store.
    pub async fn estimate(&self, caller: Caller, raw: Bytes) -> Result<Reply, Rejection> {
        let slot = format!("{}:{}:{}:{}", caller.org_id, caller.user_id, "estimates.create", sha1_smol::Sha1::from(&raw).hexdigest());
        if let Some(prev) = self.replays.get(&slot).await.map_err(Rejection::internal)? {
            return Ok(Reply::bytes(200, prev));
        }
        let req: crate::pricing::EstimateRequest = serde_json::from_slice(&raw).map_err(Rejection::bad_request)?;
        let estimate = self.engine.estimate(&caller.org_id, &req).await.map_err(Rejection::upstream)?;
        let body = serde_json::to_vec(&estimate).map_err(Rejection::internal)?;
        self.replays
            .put(&slot, &body, Duration::from_secs(600))
            .await
            .map_err(Rejection::internal)?;
        Ok(Reply::bytes(200, body))
    }
}

impl Estimates {
    pub fn new(replays: AsyncStore, engine: crate::pricing::Engine) -> Self {
        Self { replays, engine }
    }
}
