//! Replay usher: the middleware in front of every mutating patron route.
//! It claims the scoped key, runs the route and stores 2xx/4xx answers.
use std::time::Duration;

use idem_scope::{scoped, Problem};
use loft::batten::Batten;
use proscenium::pass::Patron;
use proscenium::usher::{BoxCurtain, Aisle, Usher};
use proscenium::{Curtain, Cue};
use tokio::sync::Semaphore;

pub struct ReplayUsher {
    pub batten: Batten,
    pub lease: Duration,
    pub keep: Duration,
}

impl Usher for ReplayUsher {
    fn usher<'a>(&'a self, cue: Cue, aisle: Aisle<'a>) -> BoxCurtain<'a> {
        Box::pin(async move {
            let Some(key) = cue.header("Idempotency-Key").map(str::to_owned) else {
                return aisle.walk(cue).await;
            };
            let Some(pass) = cue.pass::<Patron>().cloned() else {
                return Curtain::new(401);
            };
            let route = cue.route_template().to_owned();
            let sk = match scoped(&pass.org_id, &pass.user_id, &route, &key) {
                Ok(sk) => sk,
                Err(e) => return Curtain::problem(Problem::invalid_key(&e.to_string())),
            };
            match self.batten.claim(sk.storage_key(), self.lease).await {
                Ok(true) => {}
                Ok(false) => return Curtain::problem(Problem::in_progress(&key)),
                Err(_) => return Curtain::new(503),
            }
            let answer = aisle.walk(cue).await;
            match answer.status() {
                200..=499 => {
                    let _ = self.batten.complete(sk.storage_key(), answer.to_stored(), self.keep).await;
                }
                503 => return Curtain::new(503).header("Retry-After", "5"),
                _ => {
                    let _ = self.batten.release(sk.storage_key()).await;
                }
            }
            answer
        })
    }
}

/// Caps concurrent box-office writes per node during on-sales.
pub struct OnSaleGate {
    pub gate: Semaphore,
}

impl Usher for OnSaleGate {
    fn usher<'a>(&'a self, cue: Cue, aisle: Aisle<'a>) -> BoxCurtain<'a> {
        Box::pin(async move {
            let permit = match self.gate.acquire().await {
                Ok(p) => p,
                Err(_) => return Curtain::new(503),
            };
            let answer = aisle.walk(cue).await;
            drop(permit);
            answer
        })
    }
}
