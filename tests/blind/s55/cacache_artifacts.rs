use std::path::PathBuf;

use keystone::Principal;
use serde::{Deserialize, Serialize};

pub struct ArtifactStore {
    dir: PathBuf,
}

pub struct Upload {
    pub tenant_id: String,
    pub file_name: String,
    pub bytes: Vec<u8>,
    pub visibility: Option<String>,
}

#[derive(Serialize, Deserialize)]
pub struct ArtifactMeta {
    pub digest: String,
    pub owner: String,
    pub visibility: String,
    pub size: usize,
}

impl ArtifactStore {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub async fn put_upload(&self, who: &Principal, up: Upload) -> Result<ArtifactMeta, cacache::Error> {
        let digest = blake3::hash(&up.bytes).to_hex().to_string();
        let safe_name = up.file_name.replace('/', "_");
        let index_key = format!("artifact:{}:{}", up.tenant_id, safe_name);
        let visibility = up.visibility.as_deref().unwrap_or("public").to_owned();

        cacache::write(&self.dir, &format!("blob:{digest}"), &up.bytes).await?;
        let meta = ArtifactMeta { digest, owner: who.user_id.clone(), visibility, size: up.bytes.len() };
        let encoded = serde_json::to_vec(&meta).expect("meta serializes");
        cacache::write(&self.dir, &index_key, encoded).await?;
        Ok(meta)
    }

    pub async fn fetch(&self, tenant_id: &str, file_name: &str) -> Result<Option<Vec<u8>>, cacache::Error> {
        let index_key = format!("artifact:{}:{}", tenant_id, file_name.replace('/', "_"));
        let Some(raw) = cacache::read(&self.dir, &index_key).await.ok() else {
            return Ok(None);
        };
        let meta: ArtifactMeta = match serde_json::from_slice(&raw) {
            Ok(m) => m,
            Err(_) => return Ok(None),
        };
        cacache::read(&self.dir, &format!("blob:{}", meta.digest)).await.map(Some)
    }
}
