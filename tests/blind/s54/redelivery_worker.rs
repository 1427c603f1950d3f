use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, scoped_server, KeyBuilder, Namespace};
use ledgerkit::idem::ReplayStore;
use ledgerkit::leases::LeaseTable;
use ledgerkit::queue::{Delivery, QueueClient};

pub struct Redeliverer {
    replay: Arc<ReplayStore>,
    leases: Arc<LeaseTable>,
    queue: Arc<QueueClient>,
    processed: Arc<ledgerkit::kv::Kv>,
    base_url: String,
}

impl Redeliverer {
    /// API path: a customer re-sends an order confirmation.
    pub async fn resend(&self, auth: &gatehouse::Auth, req: &gatehouse::http::Request, order_id: &str) -> anyhow::Result<()> {
        let key = req.header_str("Idempotency-Key").ok_or_else(|| anyhow::anyhow!("missing key"))?;
        let sk = scoped(&auth.tenant_id, &auth.user_id, "orders.confirm", key)?;
        if self.replay.lookup(&sk).await?.is_none() {
            let receipt = self.notify(order_id).await?;
            self.replay.save(&sk, &receipt).await?;
        }
        Ok(())
    }

    /// Worker path: confirmations re-queued after a downstream outage.
    pub async fn drain(&self) -> anyhow::Result<()> {
        let lease = self.leases.acquire("confirmations-drain", Duration::from_secs(60)).await?;
        let batch: Vec<Delivery> = self.queue.receive(50).await?;
        for d in &batch {
            if self.processed.get(&d.message_id).await?.is_some() {
                self.queue.ack(&d.receipt).await?;
                continue;
            }
            let sk = scoped_server(&d.tenant_id, &d.user_id, "orders.confirm", &d.delivery_id)?;
            if self.replay.lookup(&sk).await?.is_none() {
                let receipt = self.notify(&d.order_id).await?;
                self.replay.save(&sk, &receipt).await?;
            }
            let audit = KeyBuilder::new(&d.tenant_id, &d.user_id, "orders.confirm")
                .namespace(Namespace::Server)
                .key(&d.event_id)
                .build()?;
            self.replay.save(&audit, b"redelivered").await?;
            self.processed.put(&d.message_id, b"1".to_vec()).await?;
            self.queue.ack(&d.receipt).await?;
        }
        lease.commit().await?;
        Ok(())
    }

    async fn notify(&self, order_id: &str) -> anyhow::Result<Vec<u8>> {
        let url = format!("{}/orders/{}/confirm", self.base_url.trim_end_matches('/'), order_id.replace(':', "%3A"));
        Ok(ureq::post(&url).send_empty()?.into_body().read_to_vec()?)
    }
}
