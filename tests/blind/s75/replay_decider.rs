//! Shared replay step for routes that keep full records (state, fingerprint,
//! stored response) rather than bare answers.
use std::future::Future;
use std::time::Duration;

use idem_scope::{decide, scoped, ClaimGuard, Decision, Fingerprint, Problem, PROBLEM_CONTENT_TYPE};
use loft::batten::Batten;
use proscenium::pass::Patron;
use proscenium::{Curtain, Cue, Flub};

pub struct ReplayStep {
    pub batten: Batten,
    pub lease: Duration,
    pub keep: Duration,
}

fn problem(p: Problem) -> Curtain {
    let status = p.status();
    let mut answer = Curtain::new(status).content_type(PROBLEM_CONTENT_TYPE).body(p.to_json());
    if p.status() == 409 {
        answer = answer.header("Retry-After", "2");
    }
    answer
}

impl ReplayStep {
    pub async fn run<F, Fut>(&self, cue: &Cue, patron: &Patron, route: &str, work: F) -> Result<Curtain, Flub>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Curtain, Flub>>,
    {
        let Some(key) = cue.header("Idempotency-Key") else {
            return Ok(problem(Problem::missing_key()));
        };
        let sk = scoped(&patron.org_id, &patron.user_id, route, key).map_err(Flub::bad_request)?;
        let fp = Fingerprint::of(route, cue.body());
        let existing = self.batten.get_record(sk.storage_key()).await?;
        match decide(existing.as_ref().map(|r| &r.record), &fp) {
            Decision::Replay => return Ok(Curtain::replay(existing.and_then(|r| r.response))),
            Decision::InProgress => return Ok(problem(Problem::in_progress(key))),
            Decision::Mismatch => return Ok(problem(Problem::mismatch(key))),
            Decision::Proceed => {}
        }
        if !self.batten.try_claim(sk.storage_key(), &fp, self.lease).await? {
            return Ok(problem(Problem::in_progress(key)));
        }
        let batten = self.batten.clone();
        let held = sk.storage_key().to_owned();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = batten.release(&held).await;
            });
        });
        let answer = work().await?;
        if answer.status() < 500 {
            self.batten.complete(sk.storage_key(), answer.to_stored(), self.keep).await?;
            guard.complete();
        }
        Ok(answer)
    }
}
