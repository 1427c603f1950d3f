//! The portal's idempotency hook, wrapped around every mutating route. It
//! follows the idem_scope contract: parse the header, resolve the scope from
//! the card, claim, run the route, complete or release.

use std::sync::Arc;
use std::time::Duration;

use idem_scope::{decide, scoped, ClaimGuard, Decision, Fingerprint, IdempotencyKey, Problem, Record, PROBLEM_CONTENT_TYPE};
use lectern::card::Student;
use lectern::hook::{BoxTell, Hook, Onward};
use lectern::{Ask, Mark, Tell};
use satchel::pouch::Pouch;

pub struct IdemHook {
    pub pouch: Arc<Pouch>,
    pub lease: Duration,
    pub ttl: Duration,
}

fn problem(p: Problem) -> Tell {
    Tell::bytes(Mark::from_u16(p.status()), p.to_json().into_bytes()).header("content-type", PROBLEM_CONTENT_TYPE)
}

impl Hook for IdemHook {
    fn around<'a>(&'a self, ask: Ask, next: Onward<'a>) -> BoxTell<'a> {
        Box::pin(async move {
            let Some(raw) = ask.head_bytes("Idempotency-Key") else {
                return problem(Problem::missing_key());
            };
            let key = match IdempotencyKey::parse_lenient(raw) {
                Ok(k) => k,
                Err(e) => return problem(Problem::invalid_key(&e.to_string())),
            };
            let Ok(card) = ask.badge::<Student>() else {
                return Tell::status(Mark::UNAUTHORIZED);
            };
            let route = ask.slot().to_owned();
            let sk = match scoped(&card.tenant_id, &card.user_id, &route, key.as_str()) {
                Ok(sk) => sk,
                Err(e) => return problem(Problem::invalid_key(&e.to_string())),
            };
            let fp = Fingerprint::of(&route, ask.content());
            tracing::debug!(route = %route, key = key.as_str(), "idempotent request");

            let existing: Option<Record> = self.pouch.get_record(sk.storage_key()).await.ok().flatten().map(|r| r.record);
            match decide(existing.as_ref(), &fp) {
                Decision::Replay => {
                    let stored = self.pouch.get(&format!("{}#reply", sk.storage_key())).await.ok().flatten().unwrap_or_default();
                    return Tell::bytes(Mark::OK, stored).header("Idempotent-Replayed", "true");
                }
                Decision::InProgress => return problem(Problem::in_progress(key.as_str())).header("Retry-After", "2"),
                Decision::Mismatch => return problem(Problem::mismatch(key.as_str())),
                Decision::Proceed => {}
            }

            match self.pouch.claim_record(sk.storage_key(), &Record::in_progress(fp.clone()), self.lease).await {
                Ok(true) => {}
                Ok(false) => return problem(Problem::in_progress(key.as_str())),
                Err(_) => return Tell::status(Mark::SERVICE_UNAVAILABLE),
            }
            let pouch = Arc::clone(&self.pouch);
            let release_key = sk.storage_key().to_owned();
            let guard = ClaimGuard::new(move || {
                tokio::spawn(async move {
                    let _ = pouch.release(&release_key).await;
                });
            });

            let tell = next.run(ask).await;
            if tell.status().is_server_error() {
                return tell;
            }
            let body = tell.body_bytes();
            if self.pouch.put_ttl(&format!("{}#reply", sk.storage_key()), &body, self.ttl).await.is_err() {
                return tell;
            }
            if self.pouch.complete_record(sk.storage_key(), &Record::completed(fp), self.ttl).await.is_ok() {
                guard.complete();
            }
            tell
        })
    }
}
