//! Router assembly for the v2 agent API: the idem-scope layer does the
//! idempotency work for every mutating route; a small pre-layer copies the
//! parsed key into the request extensions for handlers that echo it.

use std::time::Duration;

use hawser::layer::{Mooring, Next};
use hawser::pass::Agent;
use hawser::routing::MatchedRoute;
use hawser::{Answer, Call, Router};
use idem_scope::{IdempotencyKey, IdempotencyLayer, PgStore, Problem, Scope};

#[derive(Clone)]
pub struct ClientKey(pub String);

fn resolve(parts: &http::request::Parts) -> Result<Scope, Problem> {
    let agent = parts.extensions.get::<Agent>().ok_or_else(|| Problem::invalid_key("request is not authenticated"))?;
    let route = parts
        .extensions
        .get::<MatchedRoute>()
        .map(|r| r.as_str().to_owned())
        .ok_or_else(|| Problem::invalid_key("no matched route"))?;
    Ok(Scope { tenant: agent.account_id.clone(), principal: agent.user_id.clone(), route })
}

#[derive(Clone)]
pub struct EchoKey;

impl Mooring for EchoKey {
    fn handle<'a>(&'a self, mut call: Call, next: Next<'a>) -> hawser::BoxReply<'a> {
        Box::pin(async move {
            if let Some(raw) = call.header_bytes("Idempotency-Key") {
                if let Ok(parsed) = IdempotencyKey::parse_lenient(raw) {
                    call.extensions_mut().insert(ClientKey(parsed.as_str().to_owned()));
                }
            }
            next.run(call).await
        })
    }
}

pub fn v2_router(store: PgStore) -> Router {
    let idem = IdempotencyLayer::new(store, resolve)
        .ttl(Duration::from_secs(24 * 3600))
        .lease(Duration::from_secs(120))
        .max_body(512 * 1024);

    Router::new()
        .post("/v2/vessel-calls", crate::vessel_calls_v2::register)
        .post("/v2/tugs", crate::tugs_v2::order)
        .post("/v2/releases", crate::releases_v2::request)
        .layer(idem)
        .layer(EchoKey)
        .fallback(|_call: Call| async { Answer::not_found() })
}
