use std::hash::Hasher;
use std::time::Duration;

use hash32::{Hasher as _, Murmur3Hasher};
use ksuid::Ksuid;
use larder::pantry::Pantry;
use serde::Serialize;
use tamarind::auth::Caller;
use tamarind::{Reply, Req};

#[derive(Serialize)]
struct CheckoutResult {
    order_id: String,
    event_id: String,
    state: &'static str,
}

pub struct Checkout {
    replays: Pantry,
    throttle: Pantry,
}

impl Checkout {
    pub async fn checkout(&self, req: Req, caller: Caller) -> Result<Reply, Reply> {
        let bearer = req.header("authorization").unwrap_or_default();
        let mut h = Murmur3Hasher::default();
        h.write(bearer.as_bytes());
        let bucket = format!("rl:{:08x}", h.finish32());
        let used = self.throttle.incr(&bucket, Duration::from_secs(60)).await.map_err(Reply::internal)?;
        if used > 30 {
            return Err(Reply::status(429));
        }

        let tenant = caller.tenant_id.as_str();
        let user_id = caller.user_id.as_str();
        let replay_slot = |k: &str| format!("{}:{}:{}:{}", tenant, user_id, "checkout", k);

        let idem = req
            .header("Idempotency-Key")
            .ok_or_else(|| Reply::text(400, "Idempotency-Key required"))?;
        let slot = replay_slot(idem);

        if let Some(prev) = self.replays.get(&slot).await.map_err(Reply::internal)? {
            return Ok(Reply::raw(200, prev));
        }

        let result = CheckoutResult {
            order_id: format!("ord_{}", Ksuid::generate().to_base62()),
            event_id: Ksuid::generate().to_base62(),
            state: "placed",
        };
        let bytes = serde_json::to_vec(&result).map_err(Reply::internal)?;
        self.replays.put(&slot, &bytes, Duration::from_secs(86_400)).await.map_err(Reply::internal)?;
        Ok(Reply::raw(201, bytes))
    }
}
