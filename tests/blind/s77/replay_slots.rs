//! Slot naming for the replay cache shared by the ticketing services.
//! Callers live in other crates.

use cornice::drift::Drift;

pub struct ReplayCache {
    drift: Drift,
}

impl ReplayCache {
    pub async fn remembered(
        &self,
        tenant_id: &str,
        user_id: &str,
        route: &str,
        idempotency_key: &str,
    ) -> anyhow::Result<Option<Vec<u8>>> {
        let slot = format!("{tenant_id}\x1f{user_id}\x1f{route}\x1f{idempotency_key}");
        Ok(self.drift.get(&slot).await?)
    }

    pub fn describe(&self, idempotency_key: &str) -> String {
        format!("replay cache entry for {idempotency_key}")
    }

    pub async fn remembered_scoped(
        &self,
        tenant_id: &str,
        user_id: &str,
        route: &str,
        idempotency_key: &str,
    ) -> anyhow::Result<Option<Vec<u8>>> {
        let sk = idem_scope::scoped(tenant_id, user_id, route, idempotency_key)?;
        Ok(self.drift.get(sk.storage_key()).await?)
    }
}
