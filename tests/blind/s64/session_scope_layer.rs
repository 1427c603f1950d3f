use std::sync::Arc;

use idem_scope::{scoped, Problem};
use moraine::auth::Session;
use moraine::mw::{Layer, Next};
use moraine::raw::{Request, Response};
use moraine::Status;
use sextant::locker::Locker;

const ANON_PRINCIPAL: &str = "anon";
const KEY_HEADER: &str = "idempotency-key";

pub struct ReplayLayer {
    locker: Arc<Locker>,
    metrics: crate::metrics::Registry,
}

impl ReplayLayer {
    pub fn new(locker: Arc<Locker>, metrics: crate::metrics::Registry) -> Self {
        Self { locker, metrics }
    }
}

#[moraine::async_trait]
impl Layer for ReplayLayer {
    async fn handle(&self, req: Request, next: Next<'_>) -> Response {
        let Some(key) = req.headers().get(KEY_HEADER).and_then(|v| v.to_str().ok()).map(String::from) else {
            return next.run(req).await;
        };
        let session = req.extensions().get::<Session>().cloned();
        let tenant = match session.as_ref() {
            Some(s) => s.tenant_id.clone(),
            None => return Response::problem(Problem::missing_key()),
        };
        let principal = session.as_ref().map_or(ANON_PRINCIPAL.to_string(), |s| s.subject.clone());
        let route = req.matched_route().unwrap_or("unmatched").to_owned();

        let counter = format!("replay_layer.{}.{}", tenant, route);
        self.metrics.incr(&counter);

        let sk = match scoped(&tenant, &principal, &route, &key) {
            Ok(sk) => sk,
            Err(e) => return Response::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(stored)) = self.locker.get(sk.storage_key()).await {
            return Response::from_bytes(Status::OK, stored).with_header("Idempotent-Replayed", "true");
        }
        let resp = next.run(req).await;
        if resp.status().as_u16() < 500 {
            let _ = self.locker.put(sk.storage_key(), resp.body_bytes(), std::time::Duration::from_secs(86_400)).await;
        }
        resp
    }
}
