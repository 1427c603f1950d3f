//! Attachment storage: content-addressed blobs on local disk with an in-memory
//! index. Identical uploads share one blob on disk.
use std::path::PathBuf;

use multer::Multipart;
use sha2::{Digest, Sha256};

pub struct Blobs {
    root: PathBuf,
    index: foyer::Cache<String, u64>,
}

impl Blobs {
    pub async fn upload(&self, mut form: Multipart<'static>) -> anyhow::Result<String> {
        while let Some(field) = form.next_field().await? {
            if field.name() != Some("file") {
                continue;
            }
            let data = field.bytes().await?;
            let digest = hex::encode(Sha256::digest(&data));
            let path = self.root.join(&digest[..2]).join(&digest);
            if self.index.get(&digest).is_none() {
                tokio::fs::create_dir_all(path.parent().unwrap_or(&self.root)).await?;
                tokio::fs::write(&path, &data).await?;
                self.index.insert(digest.clone(), data.len() as u64);
            }
            return Ok(digest);
        }
        anyhow::bail!("multipart body has no file field")
    }

    pub async fn size_of(&self, digest: &str) -> Option<u64> {
        self.index.get(digest).map(|e| *e.value())
    }
}
