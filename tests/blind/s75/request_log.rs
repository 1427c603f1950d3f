//! Access-log usher: one structured line per request, with the request id,
//! the route and (for writes) the client's key, so support can find retries.
use std::time::Instant;

use proscenium::usher::{BoxCurtain, Aisle, Usher};
use proscenium::Cue;

pub struct AccessLog {
    pub service: &'static str,
}

impl Usher for AccessLog {
    fn usher<'a>(&'a self, cue: Cue, aisle: Aisle<'a>) -> BoxCurtain<'a> {
        Box::pin(async move {
            let started = Instant::now();
            let request_id = cue
                .header("X-Request-Id")
                .map(str::to_owned)
                .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
            let idem_key = cue.header("Idempotency-Key").map(str::to_owned);
            let route = cue.route_template().to_owned();
            let span = tracing::info_span!("request", %request_id, route = %route, idem_key = idem_key.as_deref().unwrap_or("-"));
            let _entered = span.enter();
            let answer = aisle.walk(cue).await;
            let summary = match &idem_key {
                Some(k) => format!("{} {} key={} status={}", self.service, route, k, answer.status()),
                None => format!("{} {} status={}", self.service, route, answer.status()),
            };
            tracing::info!(elapsed_ms = started.elapsed().as_millis() as u64, "{summary}");
            answer.header("X-Request-Id", &request_id)
        })
    }
}
