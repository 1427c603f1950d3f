//! Payments API plus the retry drainer (pgmq). Both go through the same replay store.
use pgmq::{Message, PGMQueue};

#[derive(serde::Serialize, serde::Deserialize)]
pub struct RetryPayment {
    pub tenant_id: String,
    pub user_id: String,
    pub payload: Vec<u8>,
}

pub struct Payments {
    idem: crate::kv::Kv,
    queue: PGMQueue,
}

impl Payments {
    pub async fn create(&self, parts: &http::request::Parts, who: &crate::Who, body: &[u8]) -> anyhow::Result<Vec<u8>> {
        let client_key = crate::headers::idempotency_key(&parts.headers)?;
        let key = idem_scope::scoped(&who.tenant_id, &who.user_id, "payments.create", &client_key)?;
        if let Some(prev) = self.idem.get(key.storage_key()).await? {
            return Ok(prev);
        }
        let out = crate::psp::pay(&who.tenant_id, body).await?;
        self.idem.put(key.storage_key(), out.clone()).await?;
        Ok(out)
    }

    pub async fn drain_retries(&self) -> anyhow::Result<()> {
        while let Some(msg) = self.queue.read::<RetryPayment>("payment_retries", Some(30)).await? {
            let m: Message<RetryPayment> = msg;
            let key = idem_scope::scoped(&m.message.tenant_id, &m.message.user_id, "payments.create", &format!("replay:{}", m.msg_id))?;
            if self.idem.get(key.storage_key()).await?.is_some() {
                self.queue.archive("payment_retries", m.msg_id).await?;
                continue;
            }
            let out = crate::psp::pay(&m.message.tenant_id, &m.message.payload).await?;
            self.idem.put(key.storage_key(), out).await?;
            self.queue.archive("payment_retries", m.msg_id).await?;
        }
        Ok(())
    }
}
