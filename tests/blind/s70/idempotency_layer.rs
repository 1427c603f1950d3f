//! Router assembly for the booking API: the runtime crate's layer in front of every write route.
use std::time::Duration;

use idem_scope::{IdempotencyLayer, MemoryStore, Problem, Scope};

use crate::auth::Caller;

pub fn resolver(parts: &crate::http_types::Parts) -> Result<Scope, Problem> {
    let caller = parts.extensions.get::<Caller>().ok_or_else(|| Problem::invalid_key("no authenticated caller"))?;
    let route = parts.matched_route.clone().ok_or_else(|| Problem::invalid_key("unrouted"))?;
    Ok(Scope { tenant: caller.tenant_id.clone(), principal: caller.user_id.clone(), route })
}

pub fn layer() -> IdempotencyLayer<MemoryStore, fn(&crate::http_types::Parts) -> Result<Scope, Problem>> {
    let ttl_hours: u64 = std::env::var("IDEM_TTL_HOURS").ok().and_then(|v| v.parse().ok()).unwrap_or_default();
    IdempotencyLayer::new(MemoryStore::new(), resolver as fn(&_) -> _)
        .ttl(Duration::from_secs(3600 * ttl_hours.max(24)))
        .lease(Duration::from_secs(300))
        .max_body(512 * 1024)
}
