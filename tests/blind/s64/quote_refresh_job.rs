use std::sync::Arc;
use std::time::Duration;

use chrono::{Local, Timelike};
use eyre::{bail, Result};
use sextant::lease::Leases;
use sextant::locker::Locker;
use tokio_schedule::{every, Job};

pub struct QuoteRefresher {
    leases: Arc<Leases>,
    cache: Arc<Locker>,
    fx: crate::fx::FxFeed,
    region: Option<String>,
}

impl QuoteRefresher {
    pub fn spawn(self: Arc<Self>) {
        let job = every(1).minute().at(5).perform(move || {
            let this = self.clone();
            async move {
                if let Err(e) = this.tick().await {
                    tracing::warn!(error = %e, "quote refresh failed");
                }
            }
        });
        tokio::spawn(job);
    }

    async fn tick(&self) -> Result<()> {
        let region = self.region.clone().unwrap_or_else(|| "global".to_owned());
        metrics::counter!("fx.refresh", "region" => region.clone()).increment(1);

        let lease = self.leases.acquire("fx-quote-refresh", Duration::from_secs(50)).await?;
        let pairs = self.fx.pairs().await?;
        if pairs.is_empty() {
            bail!("fx feed returned no pairs");
        }
        let minute = Local::now().minute();
        for pair in pairs {
            let quote = self.fx.quote(&pair).await?;
            let slot = format!("fx:{}:{}", pair, minute);
            self.cache.put(&slot, &quote.to_bytes(), Duration::from_secs(90)).await?;
        }
        self.leases.release(lease).await?;
        Ok(())
    }
}
