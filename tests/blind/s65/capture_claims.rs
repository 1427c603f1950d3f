use std::sync::Arc;
use std::time::Duration;

use error_stack::{Report, ResultExt};
use idem_scope::{scoped, ClaimGuard, Fingerprint};
use kestrel::extract::Head;
use serde::Deserialize;
use tessera::kv::Kv;

use crate::acquirer::{Acquirer, Capture};
use crate::errors::ApiError;

const LEASE: Duration = Duration::from_secs(120);

#[derive(Deserialize)]
pub struct CaptureRequest {
    pub authorization_id: String,
    pub amount_minor: i64,
}

pub struct CaptureService {
    kv: Arc<Kv>,
    acquirer: Arc<Acquirer>,
}

impl CaptureService {
    pub async fn capture(&self, head: &Head, body: &[u8]) -> Result<Capture, Report<ApiError>> {
        let who = head.identity().ok_or(ApiError::Unauthorized)?;
        let retry = head.header_str("Idempotency-Key").ok_or(ApiError::MissingKey)?;
        let key = scoped(&who.tenant_id, &who.user_id, "capture", retry).change_context(ApiError::BadKey)?;

        self.kv.claim(key.storage_key(), LEASE).await.change_context(ApiError::Busy)?;
        let req: CaptureRequest = kestrel::json::from_slice(body).change_context(ApiError::BadBody)?;
        let capture = self.acquirer.capture(&req.authorization_id, req.amount_minor).await;
        let bytes = kestrel::json::to_vec(&capture).change_context(ApiError::Internal)?;
        self.kv.complete(key.storage_key(), bytes).await.change_context(ApiError::Busy)?;
        Ok(capture)
    }

    pub async fn void(&self, head: &Head, body: &[u8]) -> Result<Capture, Report<ApiError>> {
        let who = head.identity().ok_or(ApiError::Unauthorized)?;
        let retry = head.header_str("Idempotency-Key").ok_or(ApiError::MissingKey)?;
        let key = scoped(&who.tenant_id, &who.user_id, "void", retry).change_context(ApiError::BadKey)?;
        let fp = Fingerprint::of("void", body);

        self.kv.claim(key.storage_key(), LEASE).await.change_context(ApiError::Busy)?;
        let kv = Arc::clone(&self.kv);
        let release_key = key.storage_key().to_owned();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = kv.release(&release_key).await;
            });
        });
        let req: CaptureRequest = kestrel::json::from_slice(body).change_context(ApiError::BadBody)?;
        let voided = self.acquirer.void(&req.authorization_id).await.change_context(ApiError::Upstream)?;
        let bytes = kestrel::json::to_vec(&(fp.as_bytes(), &voided)).change_context(ApiError::Internal)?;
        self.kv.complete(key.storage_key(), bytes).await.change_context(ApiError::Busy)?;
        guard.complete();
        Ok(voided)
    }
}
