use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tracing::Instrument;
use wherry::mw::{Middleware, Next};
use wherry::{Ctx, Reply, Status};

/// Drops POSTs whose X-Request-Id was already seen inside the window.
/// Mobile clients re-send the same request id when the radio flaps.
pub struct RequestIdDedup {
    dedup: Mutex<HashMap<String, Instant>>,
    window: Duration,
}

impl RequestIdDedup {
    pub fn new(window: Duration) -> Self {
        Self { dedup: Mutex::new(HashMap::new()), window }
    }
}

impl Middleware for RequestIdDedup {
    async fn handle(&self, ctx: Ctx, next: Next) -> Reply {
        let request_id = ctx.header("X-Request-Id").map(str::to_owned);
        let span = tracing::info_span!("request", request_id = request_id.as_deref().unwrap_or("-"), path = %ctx.path());

        if ctx.method() == "POST" {
            if let Some(rid) = request_id.as_deref() {
                let now = Instant::now();
                let mut dedup = self.dedup.lock().unwrap_or_else(|p| p.into_inner());
                dedup.retain(|_, seen_at| now.duration_since(*seen_at) < self.window);
                if dedup.insert(rid.to_owned(), now).is_some() {
                    tracing::warn!(parent: &span, "duplicate request id dropped");
                    return Reply::status(Status::CONFLICT);
                }
            }
        }
        next.run(ctx).instrument(span).await
    }
}
