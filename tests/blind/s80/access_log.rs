//! Moorings (middleware) shared by the public APIs: an access log, and the
//! reply guard used on routes that are not yet behind the idem-scope layer.

use std::time::{Duration, Instant};

use ballast::hold::{Claimed, Hold};
use hawser::layer::{Mooring, Next};
use hawser::pass::Agent;
use hawser::{Answer, BoxReply, Call, Snag};
use idem_scope::scoped;

#[derive(Clone)]
pub struct AccessLog;

impl Mooring for AccessLog {
    fn handle<'a>(&'a self, call: Call, next: Next<'a>) -> BoxReply<'a> {
        Box::pin(async move {
            let request_id = call.header("X-Request-Id").map(str::to_owned).unwrap_or_default();
            let idem = call.header("Idempotency-Key").unwrap_or("-").to_owned();
            let route = call.route_template().to_owned();
            let started = Instant::now();
            let out = next.run(call).await;
            let status = out.as_ref().map(|a| a.status().as_u16()).unwrap_or(500);
            tracing::info!(request_id = %request_id, idempotency_key = %idem, %route, status, elapsed_ms = started.elapsed().as_millis() as u64, "served");
            out
        })
    }
}

/// Releases the claim unless disarmed; covers `?`, early returns and panics.
struct ReleaseOnDrop {
    hold: Hold,
    key: Option<String>,
}

impl ReleaseOnDrop {
    fn disarm(mut self) {
        self.key = None;
    }
}

impl Drop for ReleaseOnDrop {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            let hold = self.hold.clone();
            tokio::spawn(async move {
                if let Err(e) = hold.release(&key).await {
                    tracing::warn!(error = %e, "claim release failed");
                }
            });
        }
    }
}

#[derive(Clone)]
pub struct ReplyGuard {
    pub hold: Hold,
}

impl Mooring for ReplyGuard {
    fn handle<'a>(&'a self, call: Call, next: Next<'a>) -> BoxReply<'a> {
        Box::pin(async move {
            let Some(k) = call.header("Idempotency-Key").map(str::to_owned) else {
                return next.run(call).await;
            };
            let agent: Agent = call.pass().ok_or_else(Snag::unauthorized)?;
            let key = scoped(&agent.account_id, &agent.user_id, call.route_template(), &k).map_err(Snag::bad_request)?;

            if let Claimed::Existing(prev) = self.hold.claim(key.storage_key(), Duration::from_secs(120)).await? {
                return Ok(Answer::replay(prev));
            }
            let guard = ReleaseOnDrop { hold: self.hold.clone(), key: Some(key.storage_key().to_owned()) };

            let answer = next.run(call).await?;
            if answer.status().is_server_error() {
                return Ok(answer);
            }
            self.hold.complete(key.storage_key(), &answer.to_bytes()).await?;
            guard.disarm();
            Ok(answer)
        })
    }
}
