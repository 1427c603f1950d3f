use std::sync::Arc;

use idem_scope::{scoped, IdempotencyKey, Problem};
use kestrel::extract::{Head, Json};
use kestrel::{Outcome, Status};
use serde::Deserialize;
use tessera::kv::Kv;

use crate::plans::{PlanCatalog, Workspace};

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlanChange {
    Upgrade { plan: String },
    Downgrade { plan: String },
    Cancel,
}

pub struct SubscriptionApi {
    kv: Arc<Kv>,
    catalog: Arc<PlanCatalog>,
}

impl SubscriptionApi {
    pub async fn change(&self, head: Head, ws: Workspace, Json(change): Json<PlanChange>) -> Outcome {
        let raw = match head.headers.get("Idempotency-Key") {
            Some(v) => v.as_bytes().to_vec(),
            None => return Outcome::problem(Problem::missing_key()),
        };
        let client_key = match IdempotencyKey::parse_lenient(&raw) {
            Ok(k) => k,
            Err(e) => return Outcome::problem(Problem::invalid_key(&e.to_string())),
        };
        let key = match &change {
            PlanChange::Cancel => scoped(&ws.org_id, "", "subscription_cancel", client_key.as_str()),
            PlanChange::Upgrade { .. } | PlanChange::Downgrade { .. } => {
                let Some(user_id) = head.identity().map(|i| i.user_id.clone()) else {
                    return Outcome::status(Status::UNAUTHORIZED);
                };
                scoped(&ws.org_id, &user_id, "subscription_change", client_key.as_str())
            }
        };
        let key = match key {
            Ok(k) => k,
            Err(e) => return Outcome::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(done)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, done);
        }
        let result = match change {
            PlanChange::Cancel => self.catalog.cancel(&ws).await,
            PlanChange::Upgrade { plan } | PlanChange::Downgrade { plan } => self.catalog.switch(&ws, &plan).await,
        };
        let bytes = kestrel::json::to_vec(&result).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::OK, bytes)
    }
}
