use std::sync::Arc;

use idem_scope::{scoped, Problem, ScopedKey};
use kestrel::intercept::{Interceptor, Next};
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::directory::ApiKeys;

const GLOBAL_ORG: &str = "global";

pub struct ReplayInterceptor {
    kv: Arc<Kv>,
    api_keys: Arc<ApiKeys>,
}

impl ReplayInterceptor {
    fn scope_for(&self, ex: &Exchange, route: &str, client_key: &str) -> Result<ScopedKey, Outcome> {
        let from_key = ex.header("x-api-key").and_then(|k| self.api_keys.owner_of(k));
        let principal = match from_key.as_ref().map(|o| o.api_key_id.clone()).or_else(|| ex.identity().map(|i| i.user_id.clone())) {
            Some(p) => p,
            None => return Err(Outcome::status(Status::UNAUTHORIZED)),
        };
        let key_org = from_key.map(|o| o.org_id);
        let org = ex.identity().map(|i| i.org_id.clone()).or(key_org).unwrap_or_else(|| GLOBAL_ORG.to_owned());
        scoped(&org, &principal, route, client_key).map_err(|e| Outcome::problem(Problem::invalid_key(&e.to_string())))
    }
}

impl Interceptor for ReplayInterceptor {
    async fn intercept(&self, ex: Exchange, next: Next<'_>) -> Outcome {
        let Some(client_key) = ex.header("Idempotency-Key").map(str::to_owned) else {
            return next.run(ex).await;
        };
        let route = ex.matched_route().to_owned();
        let key = match self.scope_for(&ex, &route, &client_key) {
            Ok(k) => k,
            Err(outcome) => return outcome,
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev).with_header("Idempotent-Replayed", "true");
        }
        let outcome = next.run(ex).await;
        if outcome.status().is_success() {
            let _ = self.kv.put(key.storage_key(), outcome.body_bytes().to_vec()).await;
        }
        outcome
    }
}
