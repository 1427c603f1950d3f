//! Access log hook: assigns or propagates X-Request-Id, records the client's
//! retry token for support, and times the request.

use std::time::Instant;

use lectern::hook::{BoxTell, Hook, Onward};
use lectern::{Ask, Tell};
use uuid::Uuid;

#[derive(Clone)]
pub struct RequestId(pub String);

#[derive(Clone)]
pub struct RetryToken(pub String);

pub struct AccessLog;

impl Hook for AccessLog {
    fn around<'a>(&'a self, mut ask: Ask, next: Onward<'a>) -> BoxTell<'a> {
        Box::pin(async move {
            let started = Instant::now();
            let request_id = ask
                .head("x-request-id")
                .map(str::to_owned)
                .unwrap_or_else(|| Uuid::new_v4().to_string());
            let retry_token = ask.head("Idempotency-Key").map(str::to_owned);

            ask.stash_mut().insert(RequestId(request_id.clone()));
            if let Some(token) = &retry_token {
                ask.stash_mut().insert(RetryToken(token.clone()));
            }
            let route = ask.slot().to_owned();
            let span = tracing::info_span!("request", %request_id, %route);
            let _enter = span.enter();

            let tell: Tell = next.run(ask).await;
            let line = format!(
                "{} {} {}ms key={}",
                route,
                tell.status().as_u16(),
                started.elapsed().as_millis(),
                retry_token.as_deref().unwrap_or("-")
            );
            tracing::info!(target: "access", "{line}");
            tell.header("x-request-id", &request_id)
        })
    }
}
