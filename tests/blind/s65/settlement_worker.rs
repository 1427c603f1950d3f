use std::sync::Arc;
use std::time::Duration;

use gcloud_sdk::google::pubsub::v1::subscriber_client::SubscriberClient;
use gcloud_sdk::google::pubsub::v1::{AcknowledgeRequest, PullRequest};
use gcloud_sdk::GoogleApi;
use idem_scope::scoped;
use kestrel::{Exchange, Outcome, Status};
use serde::Deserialize;
use tessera::kv::Kv;

use crate::settlement::Settler;

#[derive(Deserialize)]
struct SettleEvent {
    tenant_id: String,
    actor: String,
    batch_id: String,
}

pub struct SettlementWorker {
    kv: Arc<Kv>,
    settler: Arc<Settler>,
    subscription: String,
}

impl SettlementWorker {
    /// Manual trigger from the back office.
    pub async fn settle_now(&self, ex: &Exchange) -> Outcome {
        let (Some(who), Some(retry), Some(batch_id)) = (ex.identity(), ex.header("Idempotency-Key"), ex.path_param("batch")) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "settle", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let report = self.settler.settle(&who.tenant_id, &batch_id).await;
        let bytes = kestrel::json::to_vec(&report).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }

    pub async fn pull_loop(&self, client: GoogleApi<SubscriberClient<gcloud_sdk::GoogleAuthMiddleware>>) {
        loop {
            let pulled = client
                .get()
                .pull(PullRequest { subscription: self.subscription.clone(), max_messages: 50, ..Default::default() })
                .await;
            let Ok(resp) = pulled else {
                tokio::time::sleep(Duration::from_secs(5)).await;
                continue;
            };
            let mut ack_ids = Vec::new();
            for received in resp.into_inner().received_messages {
                let Some(msg) = received.message else { continue };
                let Ok(evt) = kestrel::json::from_slice::<SettleEvent>(&msg.data) else { continue };
                let Ok(key) = scoped(&evt.tenant_id, &evt.actor, "settle", &msg.message_id) else { continue };
                if self.kv.exists(key.storage_key()).await.unwrap_or(false) {
                    ack_ids.push(received.ack_id);
                    continue;
                }
                let report = self.settler.settle(&evt.tenant_id, &evt.batch_id).await;
                let _ = self.kv.put(key.storage_key(), kestrel::json::to_vec(&report).unwrap_or_default()).await;
                ack_ids.push(received.ack_id);
            }
            log::debug!("acking {} settlement messages: {:?}", ack_ids.len(), ack_ids);
            let _ = client.get().acknowledge(AcknowledgeRequest { subscription: self.subscription.clone(), ack_ids }).await;
        }
    }
}
