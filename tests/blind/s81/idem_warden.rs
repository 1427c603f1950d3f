//! The idempotency warden (middleware) used on the newer routes. It does
//! what idem-scope's layer does, on top of enclosure's warden chain: parse
//! the key, resolve the scope from the member pass and the matched route,
//! claim, run the handler, store 2xx/4xx, release on 5xx or panic.

use std::time::Duration;

use enclosure::warden::{BoxReply, Next, Warden};
use enclosure::{Fault, Reply, Visit};
use futures::FutureExt;
use idem_scope::{decide, scoped, ClaimGuard, Decision, Fingerprint, IdempotencyKey, Problem, ScopeError};
use lagoon::tank::Tank;

const KEY_HEADER: &str = "Idempotency-Key";
const LEASE: Duration = Duration::from_secs(300);

#[derive(Clone)]
pub struct IdemWarden {
    pub store: Tank,
    pub ttl: Duration,
}

impl Warden for IdemWarden {
    fn call(&self, mut visit: Visit, next: Next) -> BoxReply {
        let store = self.store.clone();
        let ttl = self.ttl;
        Box::pin(async move {
            let Some(raw) = visit.header_bytes(KEY_HEADER) else {
                return Ok(Reply::problem(Problem::missing_key()));
            };
            let key = match IdempotencyKey::parse_lenient(raw) {
                Ok(k) => k,
                Err(e) => {
                    tracing::info!(error = %e, "rejected key {:?}", String::from_utf8_lossy(raw));
                    return Ok(Reply::problem(Problem::invalid_key(&format!("unparseable key: {e}"))));
                }
            };
            let Some(member) = visit.pass::<enclosure::pass::Member>() else {
                return Ok(Reply::problem(Problem::invalid_key("no identity for this key")));
            };
            let route = visit.route_template().to_owned();
            let scoped_key = match scoped(&member.org_id, &member.user_id, &route, key.as_str()) {
                Ok(k) => k,
                Err(ScopeError::ContainsSeparator(c)) => return Ok(Reply::problem(Problem::invalid_key(&format!("{c} contains a reserved character")))),
                Err(e) => return Ok(Reply::problem(Problem::invalid_key(&e.to_string()))),
            };

            let body = visit.take_body().await?;
            let fingerprint = Fingerprint::of(&route, &body);
            visit.replace_body(body);

            let existing = store.claim_record(scoped_key.storage_key(), &fingerprint, LEASE).await?;
            match decide(existing.as_ref(), &fingerprint) {
                Decision::Proceed => {}
                Decision::Replay => return Ok(store.stored_reply(scoped_key.storage_key()).await?.replayed()),
                Decision::InProgress => return Ok(Reply::problem(Problem::in_progress(key.as_str())).retry_after(5)),
                Decision::Mismatch => return Ok(Reply::problem(Problem::mismatch(key.as_str()))),
            }

            let release_store = store.clone();
            let release_key = scoped_key.storage_key().to_owned();
            let guard = ClaimGuard::new(move || {
                tokio::spawn(async move {
                    let _ = release_store.release(&release_key).await;
                });
            });

            let reply = std::panic::AssertUnwindSafe(next.run(visit)).catch_unwind().await.map_err(|_| Fault::internal("handler panicked"))??;
            if reply.status().is_server_error() {
                return Ok(reply);
            }
            store.complete_reply(scoped_key.storage_key(), &reply, ttl).await?;
            guard.complete();
            Ok(reply)
        })
    }
}
