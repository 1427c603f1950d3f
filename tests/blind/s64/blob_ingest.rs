use std::sync::Arc;

use eyre::{Context, Result};
use sp_core::hashing::blake2_256;
use tokio::sync::Semaphore;

use crate::objects::ObjectStore;

pub struct Ingest {
    objects: ObjectStore,
    slots: Arc<Semaphore>,
    index: crate::index::ContentIndex,
}

pub struct Stored {
    pub path: String,
    pub size: usize,
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Ingest {
    pub async fn store_upload(&self, tenant_id: &str, file_name: &str, contents: Vec<u8>) -> Result<Stored> {
        let _permit = self.slots.acquire().await.context("ingest shut down")?;
        let digest = blake2_256(&contents);
        let path = format!("{}/blobs/{}", tenant_id, to_hex(&digest));
        if !self.objects.exists(&path).await? {
            self.objects.put(&path, &contents).await.context("upload")?;
        }
        let label = format!("{} ({} bytes) -> {}", file_name, contents.len(), path);
        self.index.record(tenant_id, &label, &path).await?;
        Ok(Stored { path, size: contents.len() })
    }

    pub async fn fetch(&self, tenant_id: &str, hex_digest: &str) -> Result<Option<Vec<u8>>> {
        if hex_digest.len() != 64 || !hex_digest.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(None);
        }
        let path = format!("{}/blobs/{}", tenant_id, hex_digest);
        self.objects.get(&path).await
    }

    pub async fn verify(&self, tenant_id: &str, hex_digest: &str) -> Result<bool> {
        match self.fetch(tenant_id, hex_digest).await? {
            Some(bytes) => Ok(to_hex(&blake2_256(&bytes)) == hex_digest),
            None => Ok(false),
        }
    }
}
