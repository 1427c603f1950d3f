//! Document upload: blobs are content-addressed on disk, uploads are deduplicated.
use idem_scope::scoped;
use std::io::Cursor;
use std::path::PathBuf;
use std::sync::Mutex;
use std::collections::HashMap;

pub struct Uploads {
    blob_dir: PathBuf,
    dedup: Mutex<HashMap<String, String>>,
}

impl Uploads {
    pub fn upload(&self, org_id: &str, uid: &str, body: Vec<u8>) -> std::io::Result<String> {
        let content = murmur3::murmur3_x64_128(&mut Cursor::new(&body), 0)?;
        let blob_path = self.blob_dir.join(format!("{:032x}", content));
        if !blob_path.exists() {
            std::fs::write(&blob_path, &body)?;
        }

        let upload_hash = murmur3::murmur3_32(&mut Cursor::new(&body), 7)?;
        let key = scoped(org_id, uid, "documents.upload", &upload_hash.to_string())
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let mut dedup = self.dedup.lock().unwrap();
        if let Some(id) = dedup.get(key.storage_key()) {
            return Ok(id.clone());
        }
        let id = format!("doc_{:032x}", content);
        dedup.insert(key.storage_key().to_owned(), id.clone());
        Ok(id)
    }
}
