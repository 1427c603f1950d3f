use bytes::Bytes;
use chrono::Utc;
use sha2::{Digest, Sha256};

use crate::blob::BlobStore;
use crate::directory::{ApiKeyRecord, KeyTable, SessionCache};

pub struct DocumentVault {
    objects: BlobStore,
    api_keys: KeyTable,
    sessions: SessionCache,
}

pub struct StoredDocument {
    pub object_path: String,
    pub sha256: String,
    pub uploaded_by: String,
    pub uploaded_at: chrono::DateTime<Utc>,
}

impl DocumentVault {
    pub async fn authenticate(&self, presented: &str) -> Option<ApiKeyRecord> {
        let hashed = Sha256::digest(presented.as_bytes());
        self.api_keys.get(&hashed[..]).await.ok().flatten()
    }

    pub async fn session_user(&self, session_token: &str) -> Option<String> {
        self.sessions.get(session_token).await.ok().flatten()
    }

    pub async fn upload(
        &self,
        tenant_id: &str,
        uploaded_by: Option<&str>,
        filename: &str,
        bytes: Bytes,
    ) -> anyhow::Result<StoredDocument> {
        let digest = hex::encode(Sha256::digest(&bytes));
        let safe_name = filename.replace('/', "_");
        let object_path = format!("kyc/{}/{}/{}", tenant_id, digest, safe_name);
        if !self.objects.exists(&object_path).await? {
            self.objects.put(&object_path, bytes).await?;
        }
        Ok(StoredDocument {
            object_path,
            sha256: digest,
            uploaded_by: uploaded_by.unwrap_or("system").to_owned(),
            uploaded_at: Utc::now(),
        })
    }
}
