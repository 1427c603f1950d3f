use std::sync::Arc;

use corvid::middleware::{Middleware, Next};
use corvid::{Request, Response};
use ignite_rs::cache::Cache;

use crate::auth::TenantCtx;

/// Replays stored responses for requests that carry an Idempotency-Key.
pub struct ReplayMiddleware {
    cache: Arc<Cache<Vec<u8>, Vec<u8>>>,
}

impl ReplayMiddleware {
    pub fn new(cache: Arc<Cache<Vec<u8>, Vec<u8>>>) -> Self {
        Self { cache }
    }
}

impl Middleware for ReplayMiddleware {
    async fn handle(&self, req: Request, next: Next) -> Response {
        let Some(client_key) = req
            .headers()
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .map(String::from)
        else {
            return next.run(req).await;
        };

        let tenant = match req.extensions().get::<TenantCtx>() {
            Some(t) => t.tenant_id.clone(),
            None => return Response::status(401),
        };
        let route = req.matched_route().unwrap_or_else(|| req.uri().path()).to_owned();

        let slot = match serde_cbor::to_vec(&(&tenant, &route, &client_key)) {
            Ok(s) => s,
            Err(_) => return Response::status(500),
        };

        match self.cache.get(&slot) {
            Ok(Some(bytes)) => {
                return Response::from_bytes(bytes).with_header("idempotent-replayed", "true");
            }
            Ok(None) => {}
            Err(_) => return Response::status(503),
        }

        let resp = next.run(req).await;
        log::info!(target: "replay_audit", "{}", [tenant.as_str(), route.as_str(), client_key.as_str(), resp.status().as_str()].join("|"));
        if resp.status() < 500 {
            let _ = self.cache.put(&slot, &resp.body_bytes());
        }
        resp
    }
}
