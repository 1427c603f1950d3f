use std::sync::Arc;

use futures_util::StreamExt;
use idem_scope::scoped;
use lapin::options::{BasicAckOptions, BasicConsumeOptions, BasicNackOptions};
use lapin::types::FieldTable;
use lapin::Channel;
use serde::Deserialize;

use crate::ledger::SettlementLedger;
use crate::replay::SettlementReplays;

pub const CONSUMER_DDL: &str = "CREATE TABLE IF NOT EXISTS settlement_dedup (message_id TEXT PRIMARY KEY, processed_at TIMESTAMPTZ NOT NULL DEFAULT now())";

#[derive(Deserialize)]
struct SettlementMsg {
    tenant_id: String,
    actor: String,
    invoice_id: String,
    amount_minor: i64,
}

pub struct SettlementWorker {
    replays: Arc<SettlementReplays>,
    ledger: Arc<SettlementLedger>,
}

impl SettlementWorker {
    /// Back-office users can settle an invoice by hand; the UI sends an Idempotency-Key.
    pub async fn settle_by_hand(&self, headers: &http::HeaderMap, tenant_id: &str, actor: &str, invoice_id: &str, amount_minor: i64) -> anyhow::Result<()> {
        let client_key = headers.get("Idempotency-Key").ok_or_else(|| anyhow::anyhow!("Idempotency-Key required"))?.to_str()?;
        let slot = scoped(tenant_id, actor, "settlements.post", client_key)?.storage_key().to_owned();
        if self.replays.exists(&slot).await? {
            return Ok(());
        }
        self.ledger.post(tenant_id, invoice_id, amount_minor).await?;
        self.replays.put(&slot, "posted").await?;
        Ok(())
    }

    pub async fn run(&self, channel: Channel) -> anyhow::Result<()> {
        let mut consumer = channel
            .basic_consume("settlements", "settlement-worker", BasicConsumeOptions::default(), FieldTable::default())
            .await?;
        while let Some(delivery) = consumer.next().await {
            let delivery = delivery?;
            let msg: SettlementMsg = match serde_json::from_slice(&delivery.data) {
                Ok(m) => m,
                Err(_) => {
                    delivery.nack(BasicNackOptions { requeue: false, ..Default::default() }).await?;
                    continue;
                }
            };
            let Some(message_id) = delivery.properties.message_id().as_ref().map(|m| m.to_string()) else {
                delivery.nack(BasicNackOptions { requeue: false, ..Default::default() }).await?;
                continue;
            };
            let slot = scoped(&msg.tenant_id, &msg.actor, "settlements.post", &message_id)?.storage_key().to_owned();
            if !self.replays.exists(&slot).await? {
                self.ledger.post(&msg.tenant_id, &msg.invoice_id, msg.amount_minor).await?;
                self.replays.put(&slot, "posted").await?;
            }
            delivery.ack(BasicAckOptions::default()).await?;
        }
        Ok(())
    }
}
