use std::sync::Arc;
use std::time::Duration;

use larder::pantry::Pantry;

/// Shared key layout for services that keep replays and profile snapshots in
/// the same pantry cluster.
pub struct Keyspace {
    prefix: &'static str,
    store: Arc<Pantry>,
    ttl: Duration,
}

impl Keyspace {
    pub fn new(prefix: &'static str, store: Arc<Pantry>) -> Self {
        Self { prefix, store, ttl: Duration::from_secs(86_400) }
    }

    pub async fn replay(
        &self,
        tenant_id: &str,
        user_id: &str,
        operation: &str,
        idem_key: &str,
    ) -> anyhow::Result<Option<Vec<u8>>> {
        let slot = format!("{}/{tenant_id}/{user_id}/{operation}/{idem_key}", self.prefix);
        Ok(self.store.get(&slot).await?)
    }

    fn profile_slot(&self, tenant_id: &str, user_id: &str) -> String {
        format!("{}/{tenant_id}/profiles/{user_id}", self.prefix)
    }

    pub async fn profile_snapshot(&self, tenant_id: &str, user_id: &str) -> anyhow::Result<Option<Vec<u8>>> {
        Ok(self.store.get(&self.profile_slot(tenant_id, user_id)).await?)
    }

    pub async fn store_profile(&self, tenant_id: &str, user_id: &str, snapshot: &[u8]) -> anyhow::Result<()> {
        let slot = self.profile_slot(tenant_id, user_id);
        self.store.put(&slot, snapshot, self.ttl).await?;
        Ok(())
    }

    pub fn ttl(&self) -> Duration {
        self.ttl
    }
}
