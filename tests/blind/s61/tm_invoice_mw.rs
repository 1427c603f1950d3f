use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Fingerprint, Problem};
use larder::tally::Tally;
use tamarind::auth::Caller;
use tamarind::mw::{Middleware, Next};
use tamarind::{Reply, Req};

/// Replays finished invoice mutations for retried requests.
pub struct InvoiceReplay {
    tally: Arc<Tally>,
    lease: Duration,
}

impl InvoiceReplay {
    pub fn new(tally: Arc<Tally>) -> Self {
        Self { tally, lease: Duration::from_secs(120) }
    }
}

#[tamarind::async_trait]
impl Middleware for InvoiceReplay {
    async fn handle(&self, req: Req, next: Next) -> Reply {
        let Some(client_key) = req.header("Idempotency-Key").map(str::to_owned) else {
            return next.run(req).await;
        };
        let caller = match req.ext::<Caller>().cloned().ok_or_else(|| Reply::status(401)) {
            Ok(c) => c,
            Err(denied) => return denied,
        };
        let route = req.matched_route().to_owned();

        let key = match scoped(&caller.tenant_id, &caller.user_id, &route, &client_key) {
            Ok(k) => k,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        let fp = Fingerprint::of(&route, req.body());

        match self.tally.reserve(key.storage_key(), &fp, self.lease).await {
            Ok(true) => {}
            Ok(false) => return Reply::problem(Problem::in_progress(&client_key)),
            Err(e) => return Reply::internal(e),
        }

        let reply = next.run(req).await;
        if reply.status() >= 500 {
            let _ = self.tally.abandon(key.storage_key()).await;
            return reply;
        }
        let (head, body) = match reply.into_parts_buffered().await {
            Ok(parts) => parts,
            Err(e) => return Reply::internal(e),
        };
        if let Err(e) = self.tally.commit(key.storage_key(), head.status, &body).await {
            tracing::error!(error = %e, "failed to persist invoice reply");
        }
        Reply::from_parts(head, body)
    }
}
