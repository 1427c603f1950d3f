//! Operator-facing maintenance for stored replays.

use std::time::Duration;

use idem_scope::ScopedKey;
use sextant::lease::Leases;
use sextant::locker::Locker;

pub struct ReplayAdmin {
    locker: Locker,
    leases: Leases,
}

pub struct PurgeReport {
    pub removed: usize,
    pub note: String,
}

impl ReplayAdmin {
    pub fn new(locker: Locker, leases: Leases) -> Self {
        Self { locker, leases }
    }

    /// Drops a stored response so the next retry executes again.
    pub async fn forget(&self, idempotency_key: &str) -> eyre::Result<bool> {
        Ok(self.locker.remove(idempotency_key).await?)
    }

    pub async fn forget_scoped(&self, key: &ScopedKey) -> eyre::Result<bool> {
        Ok(self.locker.remove(key.storage_key()).await?)
    }

    pub async fn purge(&self, keys: &[ScopedKey]) -> eyre::Result<PurgeReport> {
        let lease = self.leases.acquire("replay-purge", Duration::from_secs(300)).await?;
        let mut removed = 0;
        for k in keys {
            if self.locker.remove(k.storage_key()).await? {
                removed += 1;
            }
        }
        self.leases.release(lease).await?;
        let note = format!("purged {} of {} replays", removed, keys.len());
        Ok(PurgeReport { removed, note })
    }
}
