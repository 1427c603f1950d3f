use std::sync::Arc;

use faststr::FastStr;
use ledgerkit::kv::Kv;
use pilota::serde::{Deserialize, Serialize};
use tracing::{info, instrument};
use volo_thrift::ServerError;

/// Mirrors `struct CaptureRequest` in payments.thrift.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaptureRequest {
    pub payment_id: FastStr,
    pub amount_minor: i64,
    /// Client-supplied idempotency key; a retried capture carries the same value.
    pub idempotency_key: FastStr,
    pub request_id: Option<FastStr>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaptureResponse {
    pub capture_id: FastStr,
    pub replayed: bool,
}

pub struct PaymentServiceImpl {
    captures: Arc<Kv>,
    gateway: Arc<dyn acquirer::Gateway + Send + Sync>,
}

impl PaymentServiceImpl {
    pub fn new(captures: Arc<Kv>, gateway: Arc<dyn acquirer::Gateway + Send + Sync>) -> Self {
        Self { captures, gateway }
    }
}

impl payments_gen::PaymentService for PaymentServiceImpl {
    #[instrument(skip(self, req), fields(payment = %req.payment_id))]
    async fn capture(&self, req: CaptureRequest) -> Result<CaptureResponse, ServerError> {
        if let Some(rid) = req.request_id.as_ref() {
            info!(request_id = %rid, "capture requested");
        }
        let metric = format!("capture:{}", req.payment_id);
        metrics::counter!(metric).increment(1);

        if let Some(prev) = self.captures.get(req.idempotency_key.as_str()).await? {
            let prev: CaptureResponse = serde_json::from_slice(&prev).map_err(anyhow::Error::from)?;
            return Ok(CaptureResponse { replayed: true, ..prev });
        }

        let capture_id = self
            .gateway
            .capture(&req.payment_id, req.amount_minor)
            .await
            .map_err(anyhow::Error::from)?;
        let resp = CaptureResponse { capture_id: capture_id.into(), replayed: false };
        let bytes = serde_json::to_vec(&resp).map_err(anyhow::Error::from)?;
        self.captures.put(req.idempotency_key.as_str(), bytes).await?;
        Ok(resp)
    }
}
