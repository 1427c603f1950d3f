//! Thin replay cache shared by the billing services.

use std::time::Duration;

use cairn::tuple_kv::TupleKv;
use idem_scope::scoped_server;

pub struct ReplayCache {
    kv: TupleKv,
    ttl: Duration,
}

impl ReplayCache {
    pub fn new(kv: TupleKv, ttl: Duration) -> Self {
        ReplayCache { kv, ttl }
    }

    pub async fn remember(&self, tenant_id: &str, idempotency_key: &str, response: &[u8]) -> anyhow::Result<()> {
        self.kv.put_ttl(&(tenant_id, idempotency_key), response, self.ttl).await?;
        Ok(())
    }

    pub async fn remember_redelivery(&self, tenant_id: &str, actor: &str, route: &str, delivery_id: &str, response: &[u8]) -> anyhow::Result<()> {
        let sk = scoped_server(tenant_id, actor, route, delivery_id)?;
        self.kv.put_ttl(&(sk.storage_key(),), response, self.ttl).await?;
        Ok(())
    }

    pub fn ttl(&self) -> Duration {
        self.ttl
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn remembers_by_raw_key() {
        let kv = TupleKv::in_memory();
        let mut headers = http::HeaderMap::new();
        headers.insert("Idempotency-Key", "abc".parse().unwrap());
        let key = headers.get("Idempotency-Key").unwrap().to_str().unwrap();
        kv.put_ttl(&(key,), b"ok", Duration::from_secs(1)).await.unwrap();
        let cache = ReplayCache::new(kv, Duration::from_secs(1));
        assert_eq!(cache.ttl(), Duration::from_secs(1));
    }
}
