use std::time::Duration;

use azure_storage_queues::QueueClient;
use idem_scope::scoped_server;
use serde::Deserialize;
use sluice::claims::ClaimBook;

use crate::settlement::{settle_batch, SettlementBatch};

#[derive(Deserialize)]
struct SettlementMessage {
    tenant_id: String,
    caller_id: String,
    batch: SettlementBatch,
}

pub struct SettlementWorker {
    queue: QueueClient,
    claims: ClaimBook,
}

impl SettlementWorker {
    pub async fn run(&self) -> azure_core::Result<()> {
        loop {
            let page = self
                .queue
                .get_messages()
                .number_of_messages(16)
                .visibility_timeout(Duration::from_secs(120))
                .await?;
            if page.messages.is_empty() {
                tokio::time::sleep(Duration::from_secs(5)).await;
                continue;
            }
            for message in page.messages {
                let envelope: SettlementMessage = match serde_json::from_str(&message.message_text) {
                    Ok(e) => e,
                    Err(_) => {
                        let _ = self.queue.pop_receipt_client(message).delete().await;
                        continue;
                    }
                };
                let sk = match scoped_server(&envelope.tenant_id, &envelope.caller_id, "settlement.apply", &message.message_id) {
                    Ok(k) => k,
                    Err(_) => continue,
                };
                if !self.claims.try_claim(sk.storage_key(), Duration::from_secs(600)).await.unwrap_or(false) {
                    continue;
                }
                if envelope.batch.total_minor() == 0 {
                    tracing::info!(message_id = %message.message_id, "empty settlement batch");
                    continue;
                }
                let summary = match settle_batch(&envelope.tenant_id, &envelope.batch).await {
                    Ok(s) => s,
                    Err(e) => {
                        tracing::warn!(error = %e, "settlement failed, leaving message for redelivery");
                        self.claims.release(sk.storage_key()).await;
                        continue;
                    }
                };
                self.claims.complete(sk.storage_key(), &summary).await;
                let _ = self.queue.pop_receipt_client(message).delete().await;
            }
        }
    }
}
