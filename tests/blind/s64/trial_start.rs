use std::time::Duration;

use idem_scope::{scoped, ClaimGuard, Problem};
use moraine::auth::Caller;
use moraine::extract::{Head, Json};
use moraine::{Reply, Status};
use serde::Deserialize;
use sextant::locker::Locker;

#[derive(Deserialize)]
pub struct StartTrial {
    pub plan: Option<String>,
    pub trial_days: Option<u16>,
    pub referrer: Option<String>,
}

#[derive(Clone)]
pub struct Trials {
    pub locker: Locker,
    pub billing: crate::billing::Billing,
}

impl Trials {
    pub async fn start(&self, caller: Caller, head: Head, Json(t): Json<StartTrial>) -> Reply {
        let Some(key) = head.header("Idempotency-Key").map(str::to_owned) else {
            return Reply::problem(Problem::missing_key());
        };
        let plan = t.plan.unwrap_or_else(|| "starter".to_owned());
        let days = t.trial_days.unwrap_or(14);
        let referrer = t.referrer.as_deref().unwrap_or("none");
        let org_id = caller.org_id().to_owned();

        let sk = match scoped(&org_id, caller.user_id(), "trial_start", &key) {
            Ok(sk) => sk,
            Err(e) => return Reply::problem(Problem::invalid_key(&e.to_string())),
        };
        match self.locker.claim(sk.storage_key(), Duration::from_secs(120)).await {
            Ok(true) => {}
            Ok(false) => return Reply::problem(Problem::in_progress(&key)),
            Err(_) => return Reply::status(Status::SERVICE_UNAVAILABLE),
        }
        let this = self.clone();
        let storage_key = sk.storage_key().to_owned();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = this.locker.release(&storage_key).await;
            });
        });
        let sub = match self.billing.start_trial(&org_id, &plan, days, referrer).await {
            Ok(s) => s,
            Err(_) => return Reply::status(Status::BAD_GATEWAY),
        };
        let body = serde_json::to_vec(&sub).unwrap_or_default();
        if self.locker.complete(sk.storage_key(), &body).await.is_err() {
            return Reply::status(Status::SERVICE_UNAVAILABLE);
        }
        guard.complete();
        Reply::bytes(Status::CREATED, body)
    }
}
