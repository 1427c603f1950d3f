use std::sync::Arc;
use std::time::{Duration, Instant};

use dashmap::DashMap;
use quillon::auth::Caller;
use quillon::{Bytes, Ctx, Rejection, Reply};

/// Batches already accepted, so that SDK retries are not double counted.
#[derive(Clone, Default)]
pub struct IngestDedup {
    dedup: Arc<DashMap<String, Instant>>,
}

pub struct Ingest {
    pub dedup: IngestDedup,
    pub sink: crate::metrics_sink::Sink,
}

fn printable(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(120).collect()
}

impl Ingest {
    pub async fn batch(&self, ctx: &Ctx, caller: Caller, body: Bytes) -> Result<Reply, Rejection> {
        let request_id = ctx
            .header("x-request-id")
            .ok_or_else(|| Rejection::bad_request("X-Request-Id is required on ingest"))?
            .to_owned();
        let agent = printable(ctx.header("user-agent").unwrap_or("-"));
        log::info!("ingest request_id={} tenant={} agent={}", request_id, caller.tenant_id, agent);

        if self.dedup.dedup.insert(request_id.clone(), Instant::now()).is_some() {
            return Ok(Reply::status(208));
        }

        let points = crate::metrics_sink::decode(&body).map_err(Rejection::bad_request)?;
        self.sink.write(&caller.tenant_id, points).await.map_err(Rejection::upstream)?;
        Ok(Reply::status(202))
    }

    pub fn janitor(&self) {
        let dedup = self.dedup.dedup.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_secs(60));
            dedup.retain(|_, seen| seen.elapsed() < Duration::from_secs(3600));
        });
    }
}
