//! Matrix application service endpoint. The homeserver pushes events with
//! PUT /_matrix/app/v1/transactions/{txnId} and retries until it gets 200;
//! the spec says a repeated txnId must be acknowledged without reprocessing.
use std::collections::HashSet;

use ruma::api::appservice::event::push_events;
use ruma::OwnedTransactionId;
use tokio::sync::RwLock;

pub struct AppService {
    hs_token: String,
    processed: RwLock<HashSet<(String, OwnedTransactionId)>>,
    registration_id: String,
}

impl AppService {
    pub async fn push_events(
        &self,
        access_token: &str,
        req: push_events::v1::Request,
    ) -> Result<push_events::v1::Response, String> {
        if access_token != self.hs_token {
            return Err("M_FORBIDDEN".into());
        }
        let txn_key = (self.registration_id.clone(), req.txn_id.clone());
        if !self.processed.write().await.insert(txn_key) {
            tracing::debug!(txn_id = %req.txn_id, "duplicate transaction acknowledged");
            return Ok(push_events::v1::Response::new());
        }
        for ev in &req.events {
            let ev_type = ev.get_field::<String>("type").ok().flatten().unwrap_or_default();
            tracing::info!(%ev_type, "bridging event");
        }
        Ok(push_events::v1::Response::new())
    }
}
