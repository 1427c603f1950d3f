//! Router assembly: the drop-in idempotency layer guards the payment routes;
//! redelivery workers get server-namespaced keys from `ServerKeys`.

use std::time::Duration;

use idem_scope::{scoped_server, IdempotencyLayer, PgStore, Problem, Scope, ScopeError, ScopedKey};
use penstock::badge::Customer;
use penstock::{MatchedRoute, Router};

fn resolve(parts: &http::request::Parts) -> Result<Scope, Problem> {
    let who = parts
        .extensions
        .get::<Customer>()
        .ok_or_else(|| Problem::invalid_key("sign in before paying"))?;
    let route = parts
        .extensions
        .get::<MatchedRoute>()
        .map(|r| r.as_str().to_owned())
        .ok_or_else(|| Problem::invalid_key("unrouted request"))?;
    Ok(Scope { tenant: who.tenant_id.clone(), principal: who.user_id.clone(), route })
}

pub fn payment_routes(pool: aquifer::basin::Pool) -> Router {
    let layer = IdempotencyLayer::new(PgStore::new(pool), resolve)
        .ttl(Duration::from_secs(24 * 3600))
        .lease(Duration::from_secs(300))
        .max_body(512 * 1024);
    Router::new()
        .post("/v1/payments", crate::bill_pay::pay_bill)
        .post("/v1/payment-plans", crate::payment_plan::create_plan)
        .layer(layer)
}

/// Keys for redelivery workers (one per event redelivery).
pub struct ServerKeys {
    pub tenant_id: String,
    pub actor: String,
}

impl ServerKeys {
    pub fn redelivery(&self, route: &str, event_id: &str) -> Result<ScopedKey, ScopeError> {
        scoped_server(&self.tenant_id, &self.actor, route, event_id)
    }
}

#[cfg(test)]
mod tests {
    use aquifer::testing::MemTank;

    #[tokio::test]
    async fn raw_header_roundtrip() {
        let req = penstock::testing::IntakeBuilder::post("/v1/payments").header("Idempotency-Key", "k-1").build();
        let key = req.header("Idempotency-Key").unwrap();
        let tank = MemTank::default();
        tank.put(key, b"cached").await.unwrap();
        assert_eq!(tank.get(key).await.unwrap().as_deref(), Some(&b"cached"[..]));
    }
}
