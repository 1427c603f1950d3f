//! Per-rider rate limiting for write endpoints, and a single-flight lock so
//! one rider's concurrent wallet writes run one at a time.

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hopper::bay::Bay;
use wharf::badge::Rider;
use wharf::{Fault, Hail};

pub struct Limiter {
    windows: Bay,
    flights: Mutex<HashMap<(String, String), Arc<tokio::sync::Mutex<()>>>>,
    per_minute: i64,
}

impl Limiter {
    pub async fn check(&self, rider: &Rider, hail: &Hail) -> Result<(), Fault> {
        let window = time::OffsetDateTime::now_utc().unix_timestamp() / 60;
        let bucket = format!("rl:{}:{}:{}", rider.tenant_id, rider.user_id, window);
        let n = self.windows.incr_by(&bucket, 1).await?;
        if n == 1 {
            self.windows.expire(&bucket, Duration::from_secs(120)).await?;
        }
        if n > self.per_minute {
            tracing::warn!(user = %rider.user_id, key = ?hail.header("Idempotency-Key"), "rate limited");
            return Err(Fault::too_many_requests());
        }
        Ok(())
    }

    pub async fn single_flight<F, T>(&self, rider: &Rider, work: F) -> Result<T, Fault>
    where
        F: Future<Output = Result<T, Fault>>,
    {
        let lock = {
            let mut map = self.flights.lock().map_err(|_| Fault::internal("flight map poisoned"))?;
            map.entry((rider.tenant_id.clone(), rider.user_id.clone())).or_default().clone()
        };
        let _guard = lock.try_lock().map_err(|_| Fault::conflict("another wallet write is in flight"))?;
        let out = work.await?;
        Ok(out)
    }
}
