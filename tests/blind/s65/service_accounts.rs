use std::sync::Arc;

use idem_scope::scoped;
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::iam::{Rotation, ServiceAccounts};

pub struct RotateKeys {
    kv: Arc<Kv>,
    accounts: Arc<ServiceAccounts>,
}

impl RotateKeys {
    /// Service accounts authenticate as paths such as `svc/billing/worker`.
    pub async fn rotate(&self, ex: &Exchange) -> Outcome {
        let Some(svc) = ex.service_account() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let principal_id = svc.path.replacen('/', "_", 4);
        let Some(retry) = ex.header("Idempotency-Key") else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let normalized = retry.replace('-', "").to_ascii_lowercase();
        let Ok(key) = scoped(&svc.project_id, &principal_id, "rotate_keys", &normalized) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let rotation: Rotation = self.accounts.rotate(&svc.project_id, &svc.path).await;
        let bytes = kestrel::json::to_vec(&rotation).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}

impl RotateKeys {
    pub async fn list(&self, ex: &Exchange) -> Outcome {
        let Some(svc) = ex.service_account() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let keys = self.accounts.keys(&svc.project_id, &svc.path).await;
        let visible: Vec<_> = keys.into_iter().filter(|k| !k.revoked).map(|k| (k.id, k.created_at)).collect();
        Outcome::json(Status::OK, &visible)
    }
}
