use futures_lite::StreamExt;
use idem_scope::scoped_server;
use lapin::options::{BasicAckOptions, BasicConsumeOptions, BasicNackOptions, BasicRejectOptions};
use lapin::types::FieldTable;
use lapin::Channel;
use serde::Deserialize;

use crate::payments::Payments;
use crate::store::RedisClaimStore;

#[derive(Deserialize)]
struct RefundRequested {
    event_id: String,
    tenant_id: String,
    actor: String,
    payment_id: String,
    amount_minor: i64,
}

pub struct RefundWorker {
    channel: Channel,
    store: RedisClaimStore,
    payments: Payments,
}

impl RefundWorker {
    pub async fn run(&self) -> anyhow::Result<()> {
        let mut consumer = self
            .channel
            .basic_consume("refunds.requested", "refund-worker", BasicConsumeOptions::default(), FieldTable::default())
            .await?;
        while let Some(delivery) = consumer.next().await {
            let delivery = match delivery {
                Ok(d) => d,
                Err(e) => {
                    tracing::warn!(error = %e, "consumer error");
                    continue;
                }
            };
            let Ok(evt) = serde_json::from_slice::<RefundRequested>(&delivery.data) else {
                delivery.reject(BasicRejectOptions { requeue: false }).await?;
                continue;
            };
            let Ok(key) = scoped_server(&evt.tenant_id, &evt.actor, "refund.execute", &evt.event_id) else {
                delivery.reject(BasicRejectOptions { requeue: false }).await?;
                continue;
            };
            match self.store.claim(&key).await {
                Ok(true) => {}
                Ok(false) => {
                    delivery.ack(BasicAckOptions::default()).await?;
                    continue;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "claim store unavailable");
                    delivery.nack(BasicNackOptions { requeue: true, ..Default::default() }).await?;
                    continue;
                }
            }
            let Some(payment) = self.payments.find(&evt.tenant_id, &evt.payment_id).await? else {
                delivery.reject(BasicRejectOptions { requeue: false }).await?;
                continue;
            };
            tracing::info!(event_id = %evt.event_id, payment = %evt.payment_id, "executing refund");
            let outcome = self.payments.refund(&payment, evt.amount_minor).await?;
            self.store.complete(&key, &outcome).await?;
            delivery.ack(BasicAckOptions::default()).await?;
        }
        Ok(())
    }
}
