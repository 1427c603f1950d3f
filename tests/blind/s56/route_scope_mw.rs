use std::sync::Arc;

use idem_scope::{scoped, Problem, ScopedKey};
use quillon::middleware::{Middleware, Next};
use quillon::{Ctx, Reply};

use crate::replay_store::AsyncStore;

/// Resolves the idempotency scope for every mutating request and answers
/// replays before the handler runs.
pub struct ReplayMiddleware {
    store: Arc<AsyncStore>,
}

fn metric_name(path: &str) -> String {
    format!("http.replay.{}", path.trim_start_matches('/').replace('/', "."))
}

impl ReplayMiddleware {
    fn scope(&self, ctx: &Ctx) -> Result<Option<ScopedKey>, Problem> {
        let Some(key) = ctx.header("Idempotency-Key") else {
            return Ok(None);
        };
        let caller = ctx.caller().ok_or_else(|| Problem::invalid_key("unauthenticated"))?;
        let mut route = ctx.uri().path().to_owned();
        route.retain(|c| c != '/');
        scoped(&caller.tenant_id, &caller.user_id, &route, key)
            .map(Some)
            .map_err(|e| Problem::invalid_key(&e.to_string()))
    }
}

impl Middleware for ReplayMiddleware {
    async fn handle(&self, mut ctx: Ctx, next: Next<'_>) -> Reply {
        if ctx.method().is_safe() {
            return next.run(ctx).await;
        }
        let sk = match self.scope(&ctx) {
            Ok(Some(sk)) => sk,
            Ok(None) => return next.run(ctx).await,
            Err(p) => return Reply::problem(p),
        };
        metrics::counter!(metric_name(ctx.uri().path())).increment(1);

        if let Ok(Some(stored)) = self.store.get(sk.storage_key()).await {
            return Reply::bytes(stored.status, stored.body).header("Idempotent-Replayed", "true");
        }
        ctx.extensions_mut().insert(sk.clone());
        let reply = next.run(ctx).await;
        if reply.status() < 500 {
            let _ = self.store.put(sk.storage_key(), &reply.to_stored(), std::time::Duration::from_secs(86_400)).await;
        }
        reply
    }
}
