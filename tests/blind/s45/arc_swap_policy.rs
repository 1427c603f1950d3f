use std::sync::Arc;
use std::time::Duration;

use arc_swap::ArcSwap;

#[derive(Clone, Debug)]
pub enum IdempotencyMode {
    Required,
    Optional,
    Disabled,
}

/// Hot-reloadable knobs for the idempotency layer.
#[derive(Clone, Debug)]
pub struct IdempotencyPolicy {
    pub mode: IdempotencyMode,
    pub ttl: Duration,
    pub lease: Duration,
    pub max_key_len: usize,
}

impl Default for IdempotencyPolicy {
    fn default() -> Self {
        IdempotencyPolicy { mode: IdempotencyMode::Required, ttl: Duration::from_secs(86_400), lease: Duration::from_secs(300), max_key_len: 255 }
    }
}

pub struct PolicyRegistry {
    by_route: ArcSwap<Vec<(String, IdempotencyPolicy)>>,
    overrides: dashmap::DashMap<String, IdempotencyPolicy>,
}

impl PolicyRegistry {
    pub fn policy_for(&self, route: &str) -> IdempotencyPolicy {
        self.by_route
            .load()
            .iter()
            .find(|(r, _)| r == route)
            .map(|(_, p)| p.clone())
            .unwrap_or_default()
    }

    pub fn set_override(&self, route: &str, idempotency: IdempotencyPolicy) {
        self.overrides.insert(route.to_owned(), idempotency);
    }

    pub fn is_required(&self, route: &str) -> bool {
        let idempotency_key_required = matches!(self.policy_for(route).mode, IdempotencyMode::Required);
        let overridden = self.overrides.contains_key(route);
        idempotency_key_required && !overridden
    }

    pub fn reload(&self, routes: Vec<(String, IdempotencyPolicy)>) {
        let summary = routes.iter().map(|(r, p)| format!("{r}={:?}", p.mode)).collect::<Vec<_>>().join(",");
        tracing::info!(%summary, "idempotency policy reloaded");
        self.by_route.store(Arc::new(routes));
    }
}
