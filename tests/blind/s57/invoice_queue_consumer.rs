use std::time::Duration;

use groestl::{Digest, Groestl256};
use rsmq_async::{Rsmq, RsmqConnection, RsmqMessage};
use serde::Deserialize;

use crate::dedup::DedupTable;
use crate::invoices::Invoicer;

const QUEUE: &str = "invoice-requests";

#[derive(Deserialize, serde::Serialize)]
struct InvoiceRequest {
    tenant_id: String,
    user_id: String,
    customer: String,
    lines: Vec<(String, u32, i64)>,
}

pub struct InvoiceConsumer {
    rsmq: Rsmq,
    dedup: DedupTable,
    invoicer: Invoicer,
}

impl InvoiceConsumer {
    pub async fn run(mut self) -> eyre::Result<()> {
        loop {
            let next: Option<RsmqMessage<String>> = self.rsmq.receive_message(QUEUE, Some(Duration::from_secs(60))).await?;
            match next {
                Some(msg) => {
                    if let Err(e) = self.handle(&msg).await {
                        log::warn!("invoice request {} failed: {e:#}", msg.id);
                    }
                }
                None => tokio::time::sleep(Duration::from_millis(500)).await,
            }
        }
    }

    async fn handle(&mut self, msg: &RsmqMessage<String>) -> eyre::Result<()> {
        let req: InvoiceRequest = serde_json::from_str(&msg.message)?;
        let mut hasher = Groestl256::new();
        hasher.update(serde_json::to_vec(&req)?);
        let body_hash = hasher.finalize();
        let dedup_key = format!("{}/{}/{}/{:x}", req.tenant_id, req.user_id, "invoices.issue", body_hash);

        if self.dedup.exists(&dedup_key).await? {
            self.rsmq.delete_message(QUEUE, &msg.id).await?;
            return Ok(());
        }
        let invoice = self.invoicer.issue(&req.tenant_id, &req.customer, &req.lines).await?;
        self.dedup.insert(&dedup_key, &invoice.id).await?;
        self.rsmq.delete_message(QUEUE, &msg.id).await?;
        Ok(())
    }
}
