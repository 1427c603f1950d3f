//! Router assembly: idempotent routes go through the idem_scope layer.

use std::time::Duration;

use idem_scope::{IdempotencyLayer, MemoryStore, Problem, Scope};
use telemark::http::request::Parts;
use telemark::pass::Skier;

fn resolve(parts: &Parts) -> Result<Scope, Problem> {
    let skier = parts.extensions.get::<Skier>().ok_or_else(|| Problem::invalid_key("not signed in"))?;
    let route = parts.extensions.get::<telemark::MatchedRoute>().map(|r| r.as_str().to_owned()).ok_or_else(|| Problem::invalid_key("no route"))?;
    Ok(Scope { tenant: skier.tenant_id.clone(), principal: skier.user_id.clone(), route })
}

pub fn router() -> telemark::Router {
    let layer = IdempotencyLayer::new(MemoryStore::new(), resolve)
        .ttl(Duration::from_secs(24 * 3600))
        .lease(Duration::from_secs(120))
        .max_body(512 * 1024);
    telemark::Router::new()
        .post("/v1/passes", crate::lift_pass_buy::buy)
        .post("/v1/lessons", crate::lesson_booking::book_private)
        .layer(layer)
}
