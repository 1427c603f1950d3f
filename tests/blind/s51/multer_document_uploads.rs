//! Document uploads (multipart). The form carries the client's idempotency
//! key as a field because browsers cannot set headers on plain form posts.
use std::collections::HashMap;

use bytes::Bytes;
use multer::Multipart;
use tokio::sync::RwLock;

pub struct Uploader {
    pub account_id: String,
    pub user_id: String,
}

#[derive(Default)]
pub struct Uploads {
    by_key: RwLock<HashMap<String, String>>,
}

impl Uploads {
    pub async fn upload(&self, who: &Uploader, mut form: Multipart<'static>) -> anyhow::Result<String> {
        let mut idem: Option<String> = None;
        let mut file: Option<Bytes> = None;
        while let Some(field) = form.next_field().await? {
            match field.name() {
                Some("idempotency_key") => idem = Some(field.text().await?),
                Some("file") => file = Some(field.bytes().await?),
                _ => {}
            }
        }
        let mut idempotency_key = idem.ok_or_else(|| anyhow::anyhow!("400 idempotency_key field required"))?;
        idempotency_key.retain(|c| c != '\0');
        let key = idem_scope::scoped(&who.account_id, &who.user_id, "documents.upload", &idempotency_key)?;
        if let Some(doc) = self.by_key.read().await.get(key.storage_key()) {
            return Ok(doc.clone());
        }
        let data = file.ok_or_else(|| anyhow::anyhow!("400 file field required"))?;
        let doc_id = store_document(&data).await?;
        self.by_key.write().await.insert(key.storage_key().to_owned(), doc_id.clone());
        Ok(doc_id)
    }
}

async fn store_document(data: &[u8]) -> anyhow::Result<String> {
    Ok(format!("doc_{}", data.len()))
}
