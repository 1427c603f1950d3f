use http::HeaderMap;
use idem_scope::{scoped, ScopedKey};
use lapin::message::Delivery;
use lapin::options::{BasicAckOptions, BasicNackOptions};
use serde::Deserialize;

use crate::invoices::{Settlement, SettlementEngine};
use crate::store::DedupStore;

const ROUTE: &str = "invoice.settle";

#[derive(Debug, Deserialize)]
pub struct SettleInvoice {
    pub tenant_id: String,
    pub actor: String,
    pub invoice_id: String,
    pub amount_minor: i64,
}

pub struct InvoiceSettler {
    dedup: DedupStore,
    engine: SettlementEngine,
}

impl InvoiceSettler {
    async fn settle_once(&self, key: &ScopedKey, cmd: &SettleInvoice) -> anyhow::Result<Settlement> {
        if let Some(done) = self.dedup.lookup(key).await? {
            return Ok(done);
        }
        let settlement = self.engine.settle(&cmd.tenant_id, &cmd.invoice_id, cmd.amount_minor).await?;
        self.dedup.save(key, &settlement).await?;
        Ok(settlement)
    }

    pub async fn settle_from_http(&self, headers: &HeaderMap, cmd: SettleInvoice) -> anyhow::Result<Settlement> {
        let client_key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let key = scoped(&cmd.tenant_id, &cmd.actor, ROUTE, client_key)?;
        self.settle_once(&key, &cmd).await
    }

    pub async fn on_delivery(&self, delivery: Delivery) -> anyhow::Result<()> {
        tracing::debug!(delivery_tag = delivery.delivery_tag, checksum = fxhash::hash32(&delivery.data[..]), "settle message received");
        let cmd: SettleInvoice = match serde_json::from_slice(&delivery.data) {
            Ok(cmd) => cmd,
            Err(_) => {
                delivery.nack(BasicNackOptions { requeue: false, ..Default::default() }).await?;
                return Ok(());
            }
        };
        let key = scoped(&cmd.tenant_id, &cmd.actor, ROUTE, delivery.properties.message_id().as_ref().map(|m| m.as_str()).unwrap_or(&cmd.invoice_id))?;
        self.settle_once(&key, &cmd).await?;
        delivery.ack(BasicAckOptions::default()).await?;
        Ok(())
    }
}
