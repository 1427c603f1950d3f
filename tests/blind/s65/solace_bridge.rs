use std::sync::Arc;

use idem_scope::scoped;
use kestrel::{Exchange, Outcome, Status};
use solace_rs::message::{InboundMessage, Message};
use tessera::kv::Kv;

use crate::logistics::{Dispatcher, Manifest};

pub struct DispatchBridge {
    kv: Arc<Kv>,
    dispatcher: Arc<Dispatcher>,
}

fn manifest_key(tenant_id: &str, caller_id: &str, token: &str) -> Result<idem_scope::ScopedKey, idem_scope::ScopeError> {
    scoped(tenant_id, caller_id, "dispatch_manifest", token)
}

impl DispatchBridge {
    pub async fn dispatch(&self, ex: &Exchange) -> Outcome {
        let (Some(who), Some(retry)) = (ex.identity(), ex.header("Idempotency-Key")) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = manifest_key(&who.tenant_id, &who.user_id, retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let manifest: Manifest = match ex.json() {
            Ok(m) => m,
            Err(_) => return Outcome::status(Status::BAD_REQUEST),
        };
        let booked = self.dispatcher.book(&who.tenant_id, &manifest).await;
        let bytes = kestrel::json::to_vec(&booked).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }

    /// Manifests published by depot scanners on the Solace mesh.
    pub async fn on_message(&self, msg: InboundMessage) {
        let Some(message_id) = msg.get_application_message_id().map(str::to_owned) else {
            log::warn!("manifest without message id dropped");
            return;
        };
        let Ok(Some(payload)) = msg.get_payload() else { return };
        let Ok(manifest) = kestrel::json::from_slice::<Manifest>(payload) else { return };
        let Ok(key) = manifest_key(&manifest.tenant_id, &manifest.client_id, &message_id) else { return };
        if self.kv.exists(key.storage_key()).await.unwrap_or(false) {
            return;
        }
        let booked = self.dispatcher.book(&manifest.tenant_id, &manifest).await;
        let _ = self.kv.put(key.storage_key(), kestrel::json::to_vec(&booked).unwrap_or_default()).await;
    }
}
