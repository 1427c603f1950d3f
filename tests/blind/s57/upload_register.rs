use std::sync::Arc;

use blake2_rfc::blake2b::blake2b;
use corvid::RawBody;
use serde::{Deserialize, Serialize};

use crate::auth::Principal;
use crate::blobs::BlobIndex;
use crate::store::DedupRecords;

#[derive(Serialize, Hash, PartialEq, Eq)]
pub struct DedupKey {
    pub tenant_id: String,
    pub user_id: String,
    pub route: String,
    pub digest: String,
}

#[derive(Deserialize, Serialize)]
pub struct RegisterUpload {
    pub file_name: String,
    pub size: u64,
    pub mime: String,
    pub tags: Vec<String>,
}

pub struct UploadRegistry {
    dedup: Arc<DedupRecords>,
    blobs: Arc<BlobIndex>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl UploadRegistry {
    pub async fn register(&self, who: &Principal, RawBody(raw_body): RawBody) -> Result<String, crate::Error> {
        let input: RegisterUpload = serde_json::from_slice(&raw_body)?;
        let digest = hex(blake2b(32, &[], &raw_body).as_bytes());
        let key = DedupKey { tenant_id: who.tenant_id.clone(), user_id: who.user_id.clone(), route: "uploads.register".into(), digest };

        if let Some(existing) = self.dedup.lookup(&key).await? {
            return Ok(existing);
        }
        let upload_id = self.blobs.reserve(&who.tenant_id, &input.file_name, input.size).await?;
        self.dedup.save(&key, &upload_id).await?;
        Ok(upload_id)
    }

    /// Verify an uploaded object against the digest recorded at upload time.
    pub async fn verify(&self, who: &Principal, upload_id: &str, contents: &[u8]) -> Result<bool, crate::Error> {
        let actual = hex(blake2b(32, &[], contents).as_bytes());
        let expected = self.blobs.digest_of(&who.tenant_id, upload_id).await?;
        Ok(actual == expected)
    }
}
