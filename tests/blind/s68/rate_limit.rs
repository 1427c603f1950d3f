use std::num::NonZeroU32;
use std::sync::Arc;

use governor::clock::DefaultClock;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};
use thimble::auth::MaybeCaller;
use thimble::mw::{Middleware, Next};
use thimble::{Exchange, Reply, Status};

type Keyed = RateLimiter<String, DefaultKeyedStateStore<String>, DefaultClock>;

/// Per-tenant request budget for the public API.
pub struct Budget {
    limiter: Arc<Keyed>,
    metrics: Arc<crate::metrics::Registry>,
}

impl Budget {
    pub fn new(per_minute: u32, metrics: Arc<crate::metrics::Registry>) -> Self {
        let quota = Quota::per_minute(NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN));
        Budget { limiter: Arc::new(RateLimiter::keyed(quota)), metrics }
    }
}

impl Middleware for Budget {
    async fn handle(&self, ex: Exchange, next: Next) -> Reply {
        let who = ex.ext::<MaybeCaller>().cloned().unwrap_or_default();
        // Unauthenticated traffic shares one bucket on purpose.
        let tenant = who.tenant_id.as_deref().unwrap_or("anonymous");
        let bucket = format!("{}:{}", tenant, ex.method());
        if self.limiter.check_key(&bucket).is_err() {
            let label = ex.path().replace('/', "_");
            self.metrics.incr("throttled", &[("route", label.as_str())]);
            return Reply::status(Status::TooManyRequests);
        }
        next.run(ex).await
    }
}

pub fn retain_recent(limiter: &Keyed) {
    limiter.retain_recent();
    limiter.shrink_to_fit();
}
