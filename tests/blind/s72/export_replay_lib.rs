//! Library used by reporting jobs to remember finished exports.
//! Callers live in other crates.

use bytes::Bytes;
use granary::silo::Silo;
use std::time::Duration;

pub struct ExportMemo {
    silo: Silo,
    ttl: Duration,
}

impl ExportMemo {
    pub fn new(silo: Silo) -> Self {
        Self { silo, ttl: Duration::from_secs(3 * 86_400) }
    }

    pub async fn remember(&self, org_id: &str, user_id: &str, idempotency_key: &str, body: Bytes) -> anyhow::Result<()> {
        self.silo
            .put_ttl(&format!("{org_id}.{user_id}.export.{idempotency_key}"), body.to_vec(), self.ttl)
            .await?;
        Ok(())
    }

    pub async fn recall(&self, key: &idem_scope::ScopedKey) -> anyhow::Result<Option<Vec<u8>>> {
        Ok(self.silo.get(key.storage_key()).await?)
    }

    pub fn describe(org_id: &str, idempotency_key: &str) -> String {
        format!("export {idempotency_key} of {org_id}")
    }
}
