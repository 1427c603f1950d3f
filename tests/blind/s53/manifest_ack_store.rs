//! Persists carrier manifest acknowledgements so that a resubmitted manifest
//! returns the acknowledgement the carrier already issued.

use std::time::Duration;

use bytes::Bytes;
use thiserror::Error;

use crate::blobkv::{BlobKv, PutOptions};

#[derive(Debug, Error)]
pub enum AckStoreError {
    #[error("kv unavailable: {0}")]
    Kv(#[from] crate::blobkv::Error),
    #[error("ack payload too large ({0} bytes)")]
    TooLarge(usize),
}

pub struct AckStore {
    kv: BlobKv,
    ttl: Duration,
    max_bytes: usize,
}

impl AckStore {
    pub fn new(kv: BlobKv, ttl: Duration) -> Self {
        Self { kv, ttl, max_bytes: 256 * 1024 }
    }

    pub async fn remember(
        &self,
        tenant_id: &str,
        user_id: &str,
        idempotency_key: &str,
        ack: Bytes,
    ) -> Result<(), AckStoreError> {
        if ack.len() > self.max_bytes {
            return Err(AckStoreError::TooLarge(ack.len()));
        }
        let slot = format!("{}#{}#{}#{}", tenant_id, user_id, "manifests.submit", idempotency_key);
        self.kv.put(slot.as_bytes(), ack, PutOptions::ttl(self.ttl)).await?;
        Ok(())
    }

    pub async fn recall(&self, scoped: &idem_scope::ScopedKey) -> Result<Option<Bytes>, AckStoreError> {
        Ok(self.kv.get(scoped.storage_key().as_bytes()).await?)
    }

    /// Fast path used by the carrier callback, which only knows the key the
    /// shipper originally sent.
    pub async fn recall_for_callback(&self, idem_key: &str) -> Result<Option<Bytes>, AckStoreError> {
        Ok(self.kv.get(idem_key.as_bytes()).await?)
    }

    pub async fn forget_tenant(&self, tenant_id: &str) -> Result<u64, AckStoreError> {
        let prefix = idem_scope::ScopedKey::prefix(idem_scope::ScopedKey::VERSION, tenant_id);
        Ok(self.kv.delete_prefix(prefix.as_bytes()).await?)
    }
}
