use std::path::Path;

use bitcoin_hashes::{sha256, Hash};
use cloud_storage::Client;
use eyre::Result;

pub struct Manifest {
    pub tenant_id: String,
    pub entries: Vec<ManifestEntry>,
}

pub struct ManifestEntry {
    pub object: String,
    pub sha256: String,
    pub bytes: usize,
}

pub struct Uploader {
    gcs: Client,
    bucket: String,
}

impl Uploader {
    pub async fn upload_dir(&self, tenant_id: &str, dir: &Path) -> Result<Manifest> {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let file_name = entry.file_name().to_string_lossy().into_owned();
            let safe_name = file_name.replace('/', "_").replace('#', "_");
            let contents = std::fs::read(entry.path())?;
            let digest = sha256::Hash::hash(&contents).to_string();
            let object = format!("{}/{}/{}", tenant_id, &digest[..16], safe_name);
            self.gcs
                .object()
                .create(&self.bucket, contents.clone(), &object, "application/octet-stream")
                .await?;
            entries.push(ManifestEntry { object, sha256: digest, bytes: contents.len() });
        }
        let listing = entries.iter().map(|e| e.object.as_str()).collect::<Vec<_>>().join("\n");
        self.gcs
            .object()
            .create(&self.bucket, listing.into_bytes(), &format!("{}/MANIFEST", tenant_id), "text/plain")
            .await?;
        Ok(Manifest { tenant_id: tenant_id.to_owned(), entries })
    }

    pub async fn verify(&self, m: &Manifest) -> Result<bool> {
        for e in &m.entries {
            let bytes = self.gcs.object().download(&self.bucket, &e.object).await?;
            if sha256::Hash::hash(&bytes).to_string() != e.sha256 {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
