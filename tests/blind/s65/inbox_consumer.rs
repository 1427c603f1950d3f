use std::sync::Arc;

use async_broadcast::Receiver;
use idem_scope::{scoped, scoped_server};
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::billing::{BillingEvent, Invoicer};
use crate::psp::PspClient;

pub struct BillingConsumer {
    records: Arc<Kv>,
    inbox: Arc<Kv>,
    invoicer: Arc<Invoicer>,
    psp: Arc<PspClient>,
}

impl BillingConsumer {
    pub async fn invoice_now(&self, ex: &Exchange) -> Outcome {
        let (Some(who), Some(retry)) = (ex.identity(), ex.header("Idempotency-Key")) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "invoice", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.records.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let invoice = self.invoicer.invoice(&who.tenant_id).await;
        let bytes = kestrel::json::to_vec(&invoice).unwrap_or_default();
        let _ = self.records.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }

    pub async fn consume(&self, mut events: Receiver<BillingEvent>) {
        while let Ok(event) = events.recv().await {
            match event {
                BillingEvent::PeriodClosed { tenant_id, actor, event_id } => {
                    let Ok(key) = scoped_server(&tenant_id, &actor, "invoice", &event_id) else { continue };
                    if self.records.exists(key.storage_key()).await.unwrap_or(false) {
                        continue;
                    }
                    let invoice = self.invoicer.invoice(&tenant_id).await;
                    let _ = self.records.put(key.storage_key(), kestrel::json::to_vec(&invoice).unwrap_or_default()).await;
                }
                BillingEvent::ProviderWebhook { webhook_id, body } => {
                    if self.inbox.exists(&webhook_id).await.unwrap_or(false) {
                        continue;
                    }
                    self.invoicer.apply_provider_update(&body).await;
                    let _ = self.inbox.put(&webhook_id, b"seen".to_vec()).await;
                }
                BillingEvent::ChargeDue { tenant_id, charge_id, amount_minor } => {
                    let _ = self.psp.charge(&tenant_id, amount_minor, &[("Idempotency-Key", charge_id.as_str())]).await;
                }
            }
        }
    }
}
