use std::sync::Arc;

use idem_scope::scoped;
use kestrel::extract::{Head, Json};
use kestrel::{Outcome, Status};
use serde::Deserialize;
use tessera::kv::Kv;

use crate::hooks::{HookRegistry, Subscription};

#[derive(Deserialize)]
pub struct Subscribe {
    pub url: String,
    pub events: Vec<String>,
    pub secret_hint: Option<String>,
}

pub struct HookApi {
    kv: Arc<Kv>,
    registry: Arc<HookRegistry>,
}

impl HookApi {
    pub async fn subscribe(&self, head: Head, Json(req): Json<Subscribe>) -> Outcome {
        let Some(account_id) = head.identity().map(|i| i.account_id.clone()) else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let caller = match head.identity().and_then(|i| i.client_id.clone()) {
            Some(client_id) => client_id,
            None => "*".to_string(),
        };
        let Some(retry) = head.header_str("Idempotency-Key") else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&account_id, &caller, "subscribe_hook", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let events = if req.events.is_empty() { vec!["*".to_owned()] } else { req.events.clone() };
        let hint = req.secret_hint.as_deref().map(|h| h.trim_start_matches("whsec_")).unwrap_or("");
        let sub: Subscription = self.registry.add(&account_id, &req.url, &events, hint).await;
        let bytes = kestrel::json::to_vec(&sub).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
