use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use fastcdc::v2020::FastCDC;
use monocypher::hashing::blake2b;
use rustc_serialize::hex::ToHex;
use skerry::blob::BlobStore;
use skerry::stash::BlockingStash;
use uuid::Uuid;

/// Chunked, content-addressed backups of tenant export directories.
pub struct ChunkBackup {
    chunks: Arc<BlobStore>,
    catalog: Arc<BlockingStash>,
}

pub struct BackupManifest {
    pub backup_id: String,
    pub files: Vec<(String, Vec<String>)>,
}

impl ChunkBackup {
    pub fn backup_dir(&self, tenant_id: &str, root: &Path) -> std::io::Result<BackupManifest> {
        let backup_id = Uuid::new_v4().to_string();
        let mut files = Vec::new();
        for entry in walk(root)? {
            let mut data = Vec::new();
            File::open(&entry)?.read_to_end(&mut data)?;
            let mut refs = Vec::new();
            for chunk in FastCDC::new(&data, 16 * 1024, 64 * 1024, 256 * 1024) {
                let bytes = &data[chunk.offset..chunk.offset + chunk.length];
                let address = blake2b(bytes)[..24].to_hex();
                if !self.chunks.exists_blocking(&address).unwrap_or(false) {
                    self.chunks.put_blocking(&address, bytes)?;
                }
                refs.push(address);
            }
            let rel = entry.strip_prefix(root).unwrap_or(&entry).to_string_lossy().replace('\\', "/");
            files.push((rel, refs));
        }
        let manifest = BackupManifest { backup_id: backup_id.clone(), files };
        let encoded = encode_manifest(tenant_id, &manifest);
        self.catalog.put(&backup_id, &encoded)?;
        Ok(manifest)
    }
}

fn walk(root: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    Ok(out)
}

fn encode_manifest(tenant_id: &str, m: &BackupManifest) -> Vec<u8> {
    let mut out = format!("tenant {tenant_id}\nbackup {}\n", m.backup_id);
    for (path, refs) in &m.files {
        out.push_str(path);
        out.push('\t');
        out.push_str(&refs.join(","));
        out.push('\n');
    }
    out.into_bytes()
}
