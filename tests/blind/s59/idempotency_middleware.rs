use std::time::Duration;

use brindle::middleware::{Middleware, Next};
use brindle::{Ctx, Reply, Status};
use idem_scope::{decide, scoped, Decision, Fingerprint, Problem, Record};
use sluice::kv::Kv;

use crate::auth::Principal;

pub struct ReplayLayer {
    kv: Kv,
    lease: Duration,
    ttl: Duration,
}

impl ReplayLayer {
    pub fn new(kv: Kv) -> Self {
        Self { kv, lease: Duration::from_secs(300), ttl: Duration::from_secs(86_400) }
    }
}

#[brindle::async_trait]
impl Middleware for ReplayLayer {
    async fn handle(&self, ctx: Ctx, next: Next<'_>) -> Result<Reply, brindle::Error> {
        let Some(client_key) = ctx.header("Idempotency-Key").map(str::to_owned) else {
            return next.run(ctx).await;
        };
        let Some(principal) = ctx.extension::<Principal>().cloned() else {
            return Ok(Reply::status(Status::UNAUTHORIZED));
        };
        let Some(route) = ctx.matched_route().map(str::to_owned) else {
            return next.run(ctx).await;
        };
        let sk = match scoped(&principal.tenant_id, &principal.user_id, &route, &client_key) {
            Ok(k) => k,
            Err(e) => return Ok(Reply::problem(Problem::invalid_key(&e.to_string()))),
        };
        let fp = Fingerprint::of(&route, ctx.raw_body());

        let existing = self.kv.get::<Record>(sk.storage_key()).await?;
        match decide(existing.as_ref(), &fp) {
            Decision::Proceed => {}
            Decision::Replay => {
                let stored = self.kv.get::<Vec<u8>>(&format!("{}#body", sk.storage_key())).await?;
                return Ok(Reply::bytes(Status::OK, stored.unwrap_or_default()).header("Idempotent-Replayed", "true"));
            }
            Decision::InProgress => return Ok(Reply::problem(Problem::in_progress(&client_key)).header("Retry-After", "2")),
            Decision::Mismatch => return Ok(Reply::problem(Problem::mismatch(&client_key))),
        }

        self.kv.claim(sk.storage_key(), &Record::in_progress(fp.clone()), self.lease).await?;
        let reply = next.run(ctx).await?;
        if reply.status().is_server_error() {
            self.kv.release(sk.storage_key()).await?;
            return Ok(reply);
        }
        let body = reply.body_bytes().to_vec();
        self.kv.put(&format!("{}#body", sk.storage_key()), &body, self.ttl).await?;
        self.kv.complete(sk.storage_key(), &Record::completed(fp), self.ttl).await?;
        Ok(reply)
    }
}
