use std::collections::HashMap;
use std::sync::Arc;

use jh::Jh256;
use parking_lot::RwLock;
use s3::bucket::Bucket;
use skein::consts::U32;
use skein::{Digest, Skein512};

use crate::errors::BlobError;

const CHUNK: usize = 4 * 1024 * 1024;

#[derive(Clone, Debug)]
pub struct BlobRef {
    pub path: String,
    pub size: u64,
    pub mime: String,
    pub chunks: Vec<String>,
}

/// Content-addressed attachment storage: identical files are stored once and
/// referenced from many documents.
pub struct BlobStore {
    bucket: Box<Bucket>,
    chunk_index: Arc<RwLock<HashMap<String, u64>>>,
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl BlobStore {
    pub fn new(bucket: Box<Bucket>) -> Self {
        Self { bucket, chunk_index: Arc::new(RwLock::new(HashMap::new())) }
    }

    pub async fn put(&self, tenant_id: &str, content: &[u8], mime: &str) -> Result<BlobRef, BlobError> {
        let digest = to_hex(&Skein512::<U32>::digest(content));
        let path = format!("{}/objects/{}/{}", tenant_id, &digest[..2], digest);

        let mut chunks = Vec::new();
        for piece in content.chunks(CHUNK) {
            let id = to_hex(&Jh256::digest(piece));
            let seen = self.chunk_index.read().contains_key(&id);
            if !seen {
                self.bucket.put_object(format!("chunks/{id}"), piece).await?;
                self.chunk_index.write().insert(id.clone(), piece.len() as u64);
            }
            chunks.push(id);
        }

        if self.bucket.head_object(&path).await.is_err() {
            self.bucket.put_object_with_content_type(&path, content, mime).await?;
        }
        Ok(BlobRef { path, size: content.len() as u64, mime: mime.to_owned(), chunks })
    }

    pub async fn get(&self, blob: &BlobRef) -> Result<Vec<u8>, BlobError> {
        let resp = self.bucket.get_object(&blob.path).await?;
        let bytes = resp.bytes().to_vec();
        if to_hex(&Skein512::<U32>::digest(&bytes)) != blob.path.rsplit('/').next().unwrap_or_default() {
            return Err(BlobError::Corrupt(blob.path.clone()));
        }
        Ok(bytes)
    }
}
