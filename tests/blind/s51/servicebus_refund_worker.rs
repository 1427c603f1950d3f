//! Refunds arrive two ways: the public API (client Idempotency-Key) and the
//! Service Bus queue fed by the billing system. Both dedup in `refund_idem`.
use std::time::Duration;

use azure_messaging_servicebus::service_bus::{PeekLockResponse, QueueClient};
use http::HeaderMap;
use serde::Deserialize;
use stretto::AsyncCache;

#[derive(Deserialize)]
struct RefundMsg {
    merchant_id: String,
    actor: String,
    charge: String,
}

pub struct Refunds {
    refund_idem: AsyncCache<String, String>,
    queue: QueueClient,
}

impl Refunds {
    pub async fn api_refund(
        &self,
        merchant_id: &str,
        caller_id: &str,
        headers: &HeaderMap,
        charge: &str,
    ) -> anyhow::Result<String> {
        let k = headers
            .get("idempotency-key")
            .ok_or_else(|| anyhow::anyhow!("400: missing Idempotency-Key"))?
            .to_str()?;
        let scoped = idem_scope::scoped(merchant_id, caller_id, "refund", k)?;
        if let Some(done) = self.refund_idem.get(scoped.storage_key()).await {
            return Ok(done.value().clone());
        }
        let id = execute(charge).await?;
        self.refund_idem.insert(scoped.storage_key().to_owned(), id.clone(), 1).await;
        Ok(id)
    }

    pub async fn drain(&self) -> anyhow::Result<()> {
        loop {
            let lock: PeekLockResponse = self.queue.peek_lock_message2(Some(Duration::from_secs(30))).await?;
            let props = lock.broker_properties()?;
            let msg: RefundMsg = serde_json::from_str(&lock.body())?;
            let key = idem_scope::scoped(&msg.merchant_id, &msg.actor, "refund", &props.message_id)?;
            if self.refund_idem.get(key.storage_key()).await.is_none() {
                let id = execute(&msg.charge).await?;
                self.refund_idem.insert(key.storage_key().to_owned(), id, 1).await;
            }
            lock.delete_message().await?;
        }
    }
}

async fn execute(_charge: &str) -> anyhow::Result<String> {
    Ok(String::from("re_1"))
}
