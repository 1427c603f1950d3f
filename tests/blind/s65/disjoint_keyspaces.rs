use std::sync::Arc;

use idem_scope::scoped;
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::payments::{CaptureEvent, Payments};

pub struct CaptureRecords {
    kv: Arc<Kv>,
    payments: Arc<Payments>,
}

impl CaptureRecords {
    pub async fn capture(&self, ex: &Exchange) -> Outcome {
        let (Some(who), Some(retry)) = (ex.identity(), ex.header("Idempotency-Key")) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "capture", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let slot = format!("req/{}", key.storage_key());
        if let Ok(Some(prev)) = self.kv.get(&slot).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let captured = self.payments.capture(&who.tenant_id, ex.body()).await;
        let bytes = kestrel::json::to_vec(&captured).unwrap_or_default();
        let _ = self.kv.put(&slot, bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }

    pub async fn on_capture_event(&self, evt: CaptureEvent) -> Result<(), String> {
        let key = scoped(&evt.tenant_id, &evt.actor, "capture", &evt.event_id).map_err(|e| e.to_string())?;
        let slot = ["evt/", key.storage_key()].concat();
        if self.kv.exists(&slot).await.unwrap_or(false) {
            return Ok(());
        }
        self.payments.settle_capture(&evt).await.map_err(|e| e.to_string())?;
        let _ = self.kv.put(&slot, evt.event_id.clone().into_bytes()).await;
        Ok(())
    }
}
