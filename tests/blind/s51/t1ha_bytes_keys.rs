//! Binary-keyed replay table for the telemetry control plane.
use http::HeaderMap;

#[async_trait::async_trait]
pub trait ByteStore: Send + Sync {
    async fn load(&self, key: &[u8]) -> anyhow::Result<Option<Vec<u8>>>;
    async fn save(&self, key: &[u8], value: &[u8]) -> anyhow::Result<()>;
}

pub struct Scope {
    pub org_id: String,
    pub user_id: String,
}

pub fn partition_of(org_id: &str, partitions: u64) -> u64 {
    t1ha::t1ha0(org_id.as_bytes(), 0) % partitions
}

pub async fn set_sampling(
    store: &dyn ByteStore,
    scope: &Scope,
    headers: &HeaderMap,
    rate: f32,
) -> anyhow::Result<Vec<u8>> {
    let k = headers
        .get("Idempotency-Key")
        .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?
        .to_str()?;
    let op = "sampling.set";
    let key = [scope.org_id.as_bytes(), b":", scope.user_id.as_bytes(), b":", op.as_bytes(), b":", k.as_bytes()].concat();
    if let Some(prev) = store.load(&key).await? {
        return Ok(prev);
    }
    let body = format!("{{\"rate\":{rate}}}").into_bytes();
    store.save(&key, &body).await?;
    Ok(body)
}
