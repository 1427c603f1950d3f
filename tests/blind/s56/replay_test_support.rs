use idem_scope::{scoped, ScopedKey};

use crate::replay_store::AsyncStore;

pub async fn lookup(store: &AsyncStore, caller: &crate::auth::Caller, headers: &http::HeaderMap, route: &'static str) -> anyhow::Result<Option<Vec<u8>>> {
    let key = headers
        .get("Idempotency-Key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
    let sk: ScopedKey = scoped(&caller.tenant_id, &caller.user_id, route, key)?;
    Ok(store.get(sk.storage_key()).await?)
}

#[cfg(feature = "fake-replays")]
pub mod fake {
    use super::*;

    /// Seeds a fake store the way the legacy service wrote it.
    pub async fn seed(store: &AsyncStore, headers: &http::HeaderMap, body: &[u8]) {
        let key = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).unwrap_or("k1");
        store.put(key, body, std::time::Duration::from_secs(60)).await.unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use idem_scope::Fingerprint;

    const LEGACY_DDL: &str = "CREATE TABLE idempotency_keys (idem_key TEXT PRIMARY KEY, response BLOB)";

    #[tokio::test]
    async fn completes_after_claim() {
        let store = AsyncStore::memory();
        store.execute_ddl(LEGACY_DDL).await.unwrap();
        let sk = scoped("t1", "u1", "charges.create", "k1").unwrap();
        let fp = Fingerprint::of("charges.create", b"{}");
        store.claim(&sk, &fp).await.unwrap();
        let body = serde_json::to_vec(&42).unwrap();
        store.complete(&sk, &body).await.unwrap();
        assert_eq!(store.get(sk.storage_key()).await.unwrap(), Some(body));
    }
}
