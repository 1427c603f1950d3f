use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, Problem};
use lintel::mw::{Chain, Wrap};
use lintel::{Answer, Call, Code};
use skerry::stash::Stash;
use slog::{warn, Logger};

const LEASE: Duration = Duration::from_secs(60);

/// Stores responses of mutating routes so that retries are answered from the stash.
pub struct ReplayLayer {
    stash: Arc<Stash>,
    log: Logger,
}

impl ReplayLayer {
    pub fn new(stash: Arc<Stash>, log: Logger) -> Self {
        ReplayLayer { stash, log }
    }
}

impl Wrap for ReplayLayer {
    async fn wrap(&self, call: Call, next: Chain<'_>) -> Answer {
        let Some(key) = call.header("Idempotency-Key").map(str::to_owned) else {
            return next.run(call).await;
        };
        let Some(who) = call.identity().cloned() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let org_id = who.org_id.clone().unwrap_or_else(|| "global".to_string());
        let route = call.route_name().to_owned();

        let slot = match scoped(&org_id, &who.user_id, &route, &key) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(saved)) = self.stash.get(slot.storage_key()).await {
            return Answer::from_snapshot(&saved).with_header("Idempotent-Replayed", "true");
        }

        match self.stash.claim(slot.storage_key(), LEASE).await {
            Ok(true) => {}
            Ok(false) => return Answer::problem(Problem::in_progress(&key)),
            Err(_) => return Answer::status(Code::SERVICE_UNAVAILABLE),
        }
        let answer = next.run(call).await;
        if answer.code().is_server_error() {
            if let Err(e) = self.stash.release(slot.storage_key()).await {
                warn!(self.log, "release failed"; "route" => &route, "error" => %e);
            }
        } else {
            let _ = self.stash.complete(slot.storage_key(), &answer.snapshot()).await;
        }
        answer
    }
}
