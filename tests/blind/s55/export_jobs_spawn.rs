use std::sync::Arc;

use idem_scope::{scoped, ClaimGuard, IdempotencyKey, Problem, ScopedKey};
use relay::http::HeaderMap;

#[derive(Clone)]
pub struct ExportIdem {
    kv: ferrum::kv::SharedKv,
}

impl ExportIdem {
    pub async fn claim(&self, key: &ScopedKey) -> anyhow::Result<()> {
        self.kv.claim(key.storage_key(), std::time::Duration::from_secs(300)).await.map_err(Into::into)
    }
    pub async fn complete(&self, key: &ScopedKey, location: &[u8]) -> anyhow::Result<()> {
        self.kv.complete(key.storage_key(), location).await.map_err(Into::into)
    }
    pub async fn release(&self, key: &ScopedKey) -> anyhow::Result<()> {
        self.kv.release(key.storage_key()).await.map_err(Into::into)
    }
}

fn scope_for(tenant: &str, user: &str, route: &str, headers: &HeaderMap) -> Result<ScopedKey, Problem> {
    let raw = headers.get("idempotency-key").ok_or_else(Problem::missing_key)?;
    let key = IdempotencyKey::parse_lenient(raw.as_bytes()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    scoped(tenant, user, route, key.as_str()).map_err(|e| Problem::invalid_key(&e.to_string()))
}

pub async fn start_export(store: Arc<ExportIdem>, tenant: String, user: String, headers: HeaderMap, spec: reports::Spec) -> Result<u16, Problem> {
    let sk = scope_for(&tenant, &user, "exports.start", &headers)?;
    tokio::spawn(async move {
        store.claim(&sk).await?;
        let file = reports::render(&tenant, &spec).await?;
        let location = blobs::upload(&tenant, file).await?;
        store.complete(&sk, location.as_bytes()).await?;
        Ok::<_, anyhow::Error>(())
    });
    Ok(202)
}

pub async fn start_archive(store: Arc<ExportIdem>, tenant: String, user: String, headers: HeaderMap, spec: reports::Spec) -> Result<u16, Problem> {
    let sk = scope_for(&tenant, &user, "exports.archive", &headers)?;
    tokio::spawn(async move {
        store.claim(&sk).await?;
        let guard = ClaimGuard::new({
            let store = store.clone();
            let sk = sk.clone();
            move || {
                tokio::spawn(async move {
                    let _ = store.release(&sk).await;
                });
            }
        });
        let file = reports::render_archive(&tenant, &spec).await?;
        let location = blobs::upload(&tenant, file).await?;
        store.complete(&sk, location.as_bytes()).await?;
        guard.complete();
        Ok::<_, anyhow::Error>(())
    });
    Ok(202)
}
