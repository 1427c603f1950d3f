use std::panic::{self, AssertUnwindSafe};
use std::time::Duration;

use futures::TryFutureExt;
use idem_scope::scoped;
use sextant::locker::{Locker, SyncLocker};
use sextant::tuple::TupleLocker;

pub struct Rebalancer {
    sync_locker: SyncLocker,
    locker: Locker,
    tuples: TupleLocker,
    engine: crate::engine::Engine,
}

impl Rebalancer {
    pub fn rebalance(&self, tenant_id: &str, user_id: &str, key: &str, portfolio: &str) -> eyre::Result<Vec<u8>> {
        let sk = scoped(tenant_id, user_id, "rebalance", key)?;
        self.sync_locker.claim(sk.storage_key(), Duration::from_secs(120))?;
        let run = panic::catch_unwind(AssertUnwindSafe(|| self.engine.rebalance_blocking(tenant_id, portfolio)));
        let result = match run {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => {
                let _ = self.sync_locker.release(sk.storage_key());
                return Err(e.into());
            }
            Err(payload) => {
                let _ = self.sync_locker.release(sk.storage_key());
                panic::resume_unwind(payload);
            }
        };
        self.sync_locker.complete(sk.storage_key(), &result)?;
        Ok(result)
    }

    pub async fn preview(&self, tenant_id: &str, user_id: &str, key: &str, portfolio: &str) -> eyre::Result<Vec<u8>> {
        let sk = scoped(tenant_id, user_id, "rebalance_preview", key)?;
        self.locker.claim(sk.storage_key(), Duration::from_secs(60)).await?;
        let out = self
            .engine
            .preview(tenant_id, portfolio)
            .or_else(|e| async {
                let _ = self.locker.release(sk.storage_key()).await;
                Err(e)
            })
            .await?;
        self.locker.complete(sk.storage_key(), &out).await?;
        Ok(out)
    }

    pub async fn last_plan(&self, tenant_id: &str, user_id: &str, key: &str) -> eyre::Result<Option<Vec<u8>>> {
        Ok(self.tuples.get(tenant_id, user_id, "rebalance", key).await?)
    }
}
