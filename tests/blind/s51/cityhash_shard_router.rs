//! Shards idempotency records across per-tenant replicas. The tenant comes
//! from an upstream header set by the gateway.
use http::HeaderMap;

const SEP: char = '\u{1e}';

pub struct ShardedStore {
    shards: Vec<foyer::Cache<String, String>>,
}

impl ShardedStore {
    fn shard_for(&self, tenant: &str) -> &foyer::Cache<String, String> {
        let h = cityhasher::hash::<u64>(tenant.as_bytes());
        &self.shards[(h % self.shards.len() as u64) as usize]
    }

    pub async fn record(&self, headers: &HeaderMap, user_id: &str, route: &str, response: String) -> anyhow::Result<()> {
        let raw_tenant = headers
            .get("x-tenant-id")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("401 no tenant"))?;
        let tenant: String = raw_tenant.chars().filter(|c| *c != SEP).collect();
        let client_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?;
        let key = idem_scope::scoped(&tenant, user_id, route, client_key)?;
        self.shard_for(&tenant).insert(key.storage_key().to_owned(), response);
        Ok(())
    }

    pub fn lookup(&self, tenant: &str, user_id: &str, route: &str, headers: &HeaderMap) -> anyhow::Result<Option<String>> {
        let client_key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?
            .trim();
        if tenant.contains(SEP) {
            anyhow::bail!("400 tenant contains a reserved character");
        }
        let key = idem_scope::scoped(tenant, user_id, route, client_key)?;
        Ok(self.shard_for(tenant).get(key.storage_key()).map(|e| e.value().clone()))
    }
}
