//! Idempotency relay for the public v2 routes: parses the key, scopes it,
//! claims it, runs the handler and stores the answer.

use std::time::Duration;

use hopper::bay::Bay;
use idem_scope::{decide, scoped, ClaimGuard, Decision, Fingerprint, IdempotencyKey, Problem, Record};
use wharf::badge::Rider;
use wharf::relay::{Onward, Relay};
use wharf::{Answer, Code, Hail};

const PUBLIC_TENANT: &str = "public";

/// Set by the host router from the agency's domain (`fares.<agency>.example`).
#[derive(Clone)]
pub struct AgencyHost {
    pub tenant_id: String,
}

pub struct IdempotencyRelay {
    bay: Bay,
    lease: Duration,
}

impl IdempotencyRelay {
    pub fn new(bay: Bay) -> Self {
        Self { bay, lease: Duration::from_secs(60) }
    }
}

impl Relay for IdempotencyRelay {
    async fn relay(&self, hail: Hail, onward: Onward) -> Answer {
        let Some(raw) = hail.header("idempotency-key") else {
            return onward.run(hail).await;
        };
        let key = match IdempotencyKey::parse_lenient(raw.as_bytes()) {
            Ok(k) => k,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };
        let tenant = hail.ext::<AgencyHost>().map_or(PUBLIC_TENANT, |a| a.tenant_id.as_str());
        let Some(rider) = hail.badge::<Rider>() else {
            return Answer::problem(Problem::invalid_key("sign in to use Idempotency-Key"));
        };
        let route = hail.route().to_owned();
        let scoped_key = match scoped(tenant, &rider.user_id, &route, key.as_str()) {
            Ok(s) => s,
            Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
        };

        let fp = Fingerprint::of(&route, hail.body());
        let existing = match self.bay.load_record(scoped_key.storage_key()).await {
            Ok(r) => r,
            Err(_) => return Answer::status(Code::ServiceUnavailable),
        };
        match decide(existing.as_ref(), &fp) {
            Decision::Proceed => {}
            Decision::Replay => return Answer::replayed_record(existing),
            Decision::InProgress => return Answer::problem(Problem::in_progress(key.as_str())),
            Decision::Mismatch => return Answer::problem(Problem::mismatch(key.as_str())),
        }

        if self.bay.claim_record(scoped_key.storage_key(), Record::in_progress(fp), self.lease).await.is_err() {
            return Answer::problem(Problem::in_progress(key.as_str()));
        }
        let bay = self.bay.clone();
        let held = scoped_key.storage_key().to_owned();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = bay.release(&held).await;
            });
        });

        let answer = onward.run(hail).await;
        if answer.code().is_server_error() {
            return answer;
        }
        if self.bay.complete(scoped_key.storage_key(), &answer.to_stored()).await.is_ok() {
            guard.complete();
        }
        answer
    }
}
