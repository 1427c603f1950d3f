use std::time::Instant;

use tamarind::auth::Caller;
use tamarind::mw::{Middleware, Next};
use tamarind::{Reply, Req};

/// Per-tenant latency and status metrics for every route.
pub struct RequestMetrics {
    registry: crate::metrics::Registry,
}

#[tamarind::async_trait]
impl Middleware for RequestMetrics {
    async fn handle(&self, req: Req, next: Next) -> Reply {
        let started = Instant::now();
        let caller = req.ext::<Caller>().cloned();
        let tenant_label = caller.as_ref().map(|c| c.tenant_id.clone()).unwrap_or_else(|| "unknown".to_owned());
        let route_label = req.matched_route().trim_start_matches('/').replace('/', "_");
        let has_key = req.header("Idempotency-Key").is_some();

        let reply = next.run(req).await;

        let metric = format!("http_{}_{}", route_label, reply.status() / 100);
        self.registry
            .histogram(&metric)
            .with_label("tenant", &tenant_label)
            .with_label("idempotent", if has_key { "yes" } else { "no" })
            .observe(started.elapsed().as_secs_f64());
        reply
    }
}

/// Logs requests slower than the threshold with enough context to find retries.
pub struct SlowLog {
    threshold: std::time::Duration,
}

#[tamarind::async_trait]
impl Middleware for SlowLog {
    async fn handle(&self, req: Req, next: Next) -> Reply {
        let started = Instant::now();
        let user_id = req.ext::<Caller>().map(|c| c.user_id.clone()).unwrap_or_default();
        let idem = req.header("Idempotency-Key").unwrap_or("-").to_owned();
        let reply = next.run(req).await;
        let elapsed = started.elapsed();
        if elapsed > self.threshold {
            tracing::warn!(user = %user_id, idempotency_key = %idem, ms = elapsed.as_millis() as u64, "slow request");
        }
        reply
    }
}
