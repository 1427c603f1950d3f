use std::time::Duration;

use cairn::kv::Bucket;
use idem_scope::{scoped, ClaimGuard, ScopedKey};

pub struct Normaliser {
    records: Bucket,
}

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("missing Idempotency-Key")]
    Missing,
    #[error("Idempotency-Key contains a reserved character")]
    Reserved,
    #[error(transparent)]
    Scope(#[from] idem_scope::ScopeError),
}

impl Normaliser {
    /// Mobile SDK 3.x prefixes keys with "#"; drop it so retries from old and new SDKs match.
    pub fn scoped_from_sdk(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str) -> Result<ScopedKey, KeyError> {
        let raw = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or(KeyError::Missing)?;
        let key = raw.replacen('#', "", 1);
        Ok(scoped(tenant_id, user_id, "sync.push", &key)?)
    }

    pub fn scoped_strict(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str) -> Result<ScopedKey, KeyError> {
        let raw = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or(KeyError::Missing)?;
        if raw.contains(['#', ':', '|', '/', '\0', '\u{1e}']) {
            return Err(KeyError::Reserved);
        }
        Ok(scoped(tenant_id, user_id, "sync.push", raw)?)
    }

    pub async fn push(&self, sk: ScopedKey, payload: Vec<u8>) -> anyhow::Result<()> {
        self.records.claim(sk.storage_key(), Duration::from_secs(30)).await?;
        let guard = {
            let records = self.records.clone();
            let owned = sk.storage_key().to_owned();
            ClaimGuard::new(move || {
                tokio::spawn(async move {
                    let _ = records.release(&owned).await;
                });
            })
        };
        anyhow::ensure!(!payload.is_empty(), "empty sync payload");
        self.records.complete(sk.storage_key(), &payload).await?;
        guard.complete();
        Ok(())
    }
}
