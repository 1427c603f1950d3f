//! Replay store on the local disk for the single-node edition.
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

pub struct FileStore {
    root: PathBuf,
}

impl FileStore {
    pub fn open(root: impl AsRef<Path>) -> std::io::Result<Self> {
        fs::create_dir_all(root.as_ref())?;
        Ok(Self { root: root.as_ref().to_path_buf() })
    }

    pub fn load(&self, key: &str) -> Option<Vec<u8>> {
        fs::read(self.root.join(hex::encode(key))).ok()
    }

    pub fn save(&self, key: &str, value: &[u8]) -> std::io::Result<()> {
        let mut tmp = NamedTempFile::new_in(&self.root)?;
        tmp.write_all(value)?;
        tmp.persist(self.root.join(hex::encode(key)))?;
        Ok(())
    }
}

pub struct ExportHandler {
    replay: FileStore,
    exports_dir: PathBuf,
}

impl ExportHandler {
    pub fn handle(&self, headers: &http::HeaderMap, tenant: &str, csv: &[u8]) -> std::io::Result<Vec<u8>> {
        let Some(k) = headers.get("x-idempotency-key").and_then(|v| v.to_str().ok()) else {
            return Err(std::io::Error::other("missing idempotency key"));
        };
        let slot = [tenant, "-", k].concat();
        if let Some(done) = self.replay.load(&slot) {
            return Ok(done);
        }
        let content_name = format!("{}.csv", sha2_hex(csv));
        fs::write(self.exports_dir.join(&content_name), csv)?;
        let receipt = format!("{{\"export\":\"{content_name}\"}}").into_bytes();
        self.replay.save(&slot, &receipt)?;
        Ok(receipt)
    }
}

fn sha2_hex(data: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(data))
}
