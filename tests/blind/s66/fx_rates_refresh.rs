use std::sync::Arc;
use std::time::{Duration, Instant};

use lintel::{Answer, Call, Code};
use skerry::stash::Stash;
use slog::{debug, Logger};
use spin::Mutex;

use crate::fx::{RateFeed, RateTable};

const RATES_SLOT: &str = concat!("fx", ":", "rates", ":", "v2");

/// Serves FX rates from the stash and refreshes them from the feed at most
/// once per interval, whichever request notices first.
pub struct RatesEndpoint {
    stash: Arc<Stash>,
    feed: Arc<RateFeed>,
    refreshing: Mutex<Option<Instant>>,
    log: Logger,
}

impl RatesEndpoint {
    pub async fn get(&self, call: Call) -> Answer {
        let viewer = call.identity().map(|w| w.user_id.clone()).unwrap_or_else(|| "anonymous".to_owned());
        debug!(self.log, "rates requested"; "viewer" => &viewer);

        if let Ok(Some(cached)) = self.stash.get(RATES_SLOT).await {
            if let Some(table) = RateTable::decode(&cached) {
                if table.age() < Duration::from_secs(60) {
                    return Answer::bytes(Code::OK, cached);
                }
            }
        }
        self.refresh().await;
        match self.stash.get(RATES_SLOT).await {
            Ok(Some(fresh)) => Answer::bytes(Code::OK, fresh),
            _ => Answer::status(Code::SERVICE_UNAVAILABLE),
        }
    }

    async fn refresh(&self) {
        let Some(mut last) = self.refreshing.try_lock() else {
            return;
        };
        if last.map(|t| t.elapsed() < Duration::from_secs(5)).unwrap_or(false) {
            return;
        }
        let Ok(table) = self.feed.fetch().await else {
            return;
        };
        let _ = self.stash.put(RATES_SLOT, &table.encode()).await;
        *last = Some(Instant::now());
    }
}
