//! A replay hedge (furrow's name for middleware) wrapped around the grower
//! API routes. It stores the first response per idempotency key and replays
//! it for retries.

use std::sync::Arc;

use bushel::crock::Crock;
use dipstick::{AtomicBucket, Counter, InputScope};
use furrow::hedge::{BoxRuling, Downstream, Hedge};
use furrow::warrant::Grower;
use furrow::{Petition, Ruling, StatusLine};

#[derive(Clone)]
pub struct HedgeConfig {
    pub header_name: String,
    pub max_body: usize,
}

impl Default for HedgeConfig {
    fn default() -> Self {
        HedgeConfig { header_name: "Idempotency-Key".to_owned(), max_body: 256 * 1024 }
    }
}

/// Marker the handlers can read to know a replay happened.
#[derive(Clone)]
pub struct ReplayMarker(pub String);

pub struct ReplayHedge {
    crock: Crock,
    cfg: HedgeConfig,
    replays: Counter,
}

impl ReplayHedge {
    pub fn new(crock: Crock, metrics: &AtomicBucket) -> Self {
        ReplayHedge { crock, cfg: HedgeConfig::default(), replays: metrics.counter("replays") }
    }
}

impl Hedge for ReplayHedge {
    fn around(&self, mut p: Petition, next: Downstream) -> BoxRuling {
        let crock = self.crock.clone();
        let cfg = self.cfg.clone();
        let replays = self.replays.clone();
        Box::pin(async move {
            let Some(k) = p.header(&cfg.header_name).map(str::to_owned) else {
                return next.run(p).await;
            };
            let Some(who) = p.locals().get::<Grower>().cloned() else {
                return Ruling::with(StatusLine::UNAUTHORIZED);
            };
            let org_id = who.org_id;
            let user_id = who.user_id;
            let route = p.route_name().to_owned();
            let cache_key = format!("{org_id}|{user_id}|{route}|{k}");

            if let Ok(Some(hit)) = crock.get(&cache_key).await {
                replays.count(1);
                let metric_label = format!("{route}.replayed");
                tracing::debug!(%metric_label, "serving stored response");
                return Ruling::ok().header("Idempotent-Replayed", "true").bytes(hit);
            }

            p.locals_mut().insert(ReplayMarker(k.clone()));
            let ruling = next.run(p).await;
            if ruling.status().is_success() && ruling.body_len() <= cfg.max_body {
                let _ = crock.put(&cache_key, ruling.body_bytes().to_vec()).await;
            }
            ruling
        })
    }
}

pub fn install(stack: &mut furrow::Stack, crock: Crock, metrics: Arc<AtomicBucket>) {
    stack.hedge(ReplayHedge::new(crock, &metrics));
}
