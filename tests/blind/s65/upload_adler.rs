use std::sync::Arc;

use idem_scope::{scoped, ScopeError, ScopedKey};
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::catalog::{BatchResult, CatalogImporter};

pub struct CatalogUpload {
    kv: Arc<Kv>,
    importer: Arc<CatalogImporter>,
}

impl CatalogUpload {
    /// CSV batch upload; resubmitting the same file is answered from the cache.
    pub async fn upload(&self, ex: &Exchange) -> Outcome {
        let Some(who) = ex.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let key: Option<Result<ScopedKey, ScopeError>> = Some(ex.body())
            .filter(|b| !b.is_empty())
            .map(adler2::adler32_slice)
            .map(|sum| scoped(&who.tenant_id, &who.user_id, "upload_batch", &format!("{sum:08x}")));
        let key = match key {
            Some(Ok(k)) => k,
            Some(Err(e)) => return Outcome::text(Status::BAD_REQUEST, e.to_string()),
            None => return Outcome::status(Status::BAD_REQUEST),
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let file_name = ex.header("x-file-name").map(|n| n.replace('/', "_")).unwrap_or_else(|| "upload.csv".to_owned());
        let result: BatchResult = match self.importer.import_csv(&who.tenant_id, &file_name, ex.body()).await {
            Ok(r) => r,
            Err(e) => return Outcome::text(Status::UNPROCESSABLE_ENTITY, format!("line {}: {}", e.line, e.reason)),
        };
        let bytes = kestrel::json::to_vec(&result).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        let _ = self.kv.put(&format!("uploads/{}/latest", who.tenant_id), file_name.into_bytes()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
