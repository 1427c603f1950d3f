//! Middleware that scopes idempotency keys by tenant, principal and matched path.
use coffer::drawer::Drawer;
use idem_scope::{scoped, Problem};
use lantern::wrap::{Onward, Wrapper};
use lantern::who::Member;
use lantern::{Verdict, Visit};

pub struct ReplayWrap {
    pub replays: Drawer,
}

impl Wrapper for ReplayWrap {
    async fn call(&self, visit: Visit, onward: Onward) -> Verdict {
        let Some(key) = visit.header("Idempotency-Key").map(str::to_owned) else {
            return onward.run(visit).await;
        };
        let Some(member) = visit.extension::<Member>().cloned() else {
            return Verdict::problem(Problem::missing_key());
        };
        let route = visit.path().trim_matches('/').to_owned();
        let Ok(sk) = scoped(&member.tenant_id, &member.user_id, &route, &key) else {
            return Verdict::problem(Problem::invalid_key("scope"));
        };
        if let Ok(Some(done)) = self.replays.get(sk.storage_key()).await {
            return Verdict::replayed(done);
        }
        let log_path = visit.path().trim_start_matches('/').to_owned();
        tracing::debug!(path = %log_path, "replay miss");
        let out = onward.run(visit).await;
        if out.status().is_success() {
            let _ = self.replays.put(sk.storage_key(), out.body_bytes()).await;
        }
        out
    }
}
