//! Fake pouch for local development without the satchel cluster. Only built
//! with `--features fake-pouch`; never part of a deployed binary.
#![cfg(feature = "fake-pouch")]

use std::collections::HashMap;
use std::time::Duration;

use tokio::sync::RwLock;

#[derive(Default)]
pub struct FakePouch {
    map: RwLock<HashMap<String, Vec<u8>>>,
    claims: RwLock<HashMap<String, ()>>,
}

impl FakePouch {
    pub async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        Ok(self.map.read().await.get(key).cloned())
    }

    pub async fn put(&self, key: &str, value: &[u8]) -> anyhow::Result<()> {
        self.map.write().await.insert(key.to_owned(), value.to_vec());
        Ok(())
    }

    pub async fn claim(&self, key: &str, _lease: Duration) -> anyhow::Result<bool> {
        let mut claims = self.claims.write().await;
        if claims.contains_key(key) {
            return Ok(false);
        }
        claims.insert(key.to_owned(), ());
        Ok(true)
    }

    pub async fn complete(&self, key: &str, value: &[u8]) -> anyhow::Result<()> {
        self.claims.write().await.remove(key);
        self.put(key, value).await
    }

    pub async fn release(&self, key: &str) -> anyhow::Result<()> {
        self.claims.write().await.remove(key);
        Ok(())
    }

    /// Demo route for the local sandbox: keyed on whatever the client sent.
    pub async fn demo_pay(&self, idempotency_key: &str, tenant: Option<&str>) -> anyhow::Result<Vec<u8>> {
        let tenant_id = tenant.unwrap_or_default();
        let slot = format!("{tenant_id}/{idempotency_key}");
        if !self.claim(&slot, Duration::from_secs(5)).await? {
            anyhow::bail!("in progress");
        }
        let body = serde_json::to_vec(&serde_json::json!({ "paid": true, "tenant": tenant_id }))?;
        self.complete(&slot, &body).await?;
        Ok(body)
    }
}
