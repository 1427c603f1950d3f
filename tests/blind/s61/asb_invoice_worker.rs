use std::sync::Arc;

use azservicebus::prelude::*;
use azservicebus::{ServiceBusClient, ServiceBusReceivedMessage, ServiceBusReceiverOptions};
use larder::table::Table;
use serde::Deserialize;

#[derive(Deserialize)]
struct CreateInvoice {
    idempotency_key: String,
    tenant_id: String,
    customer_ref: String,
    lines: Vec<(String, i64)>,
}

pub struct InvoiceWorker {
    invoices: Arc<Table>,
}

impl InvoiceWorker {
    async fn handle(&self, msg: &ServiceBusReceivedMessage) -> anyhow::Result<()> {
        let cmd: CreateInvoice = serde_json::from_slice(msg.body()?)?;
        let total: i64 = cmd.lines.iter().map(|(_, amount)| amount).sum();
        let row = serde_json::json!({
            "tenant_id": cmd.tenant_id,
            "customer_ref": cmd.customer_ref,
            "total_minor": total,
        });
        let inserted = self.invoices.insert(&cmd.idempotency_key, &row).await?;
        if !inserted {
            tracing::info!(tenant = %cmd.tenant_id, "duplicate invoice command ignored");
        }
        Ok(())
    }

    pub async fn run(self, client: &mut ServiceBusClient<BasicRetryPolicy>) -> anyhow::Result<()> {
        let mut receiver = client
            .create_receiver_for_queue("invoice-commands", ServiceBusReceiverOptions::default())
            .await?;
        while let Some(msg) = receiver.receive_message().await.ok() {
            match self.handle(&msg).await {
                Ok(()) => receiver.complete_message(&msg).await?,
                Err(e) => {
                    tracing::warn!(error = %e, message_id = ?msg.message_id(), "invoice command failed");
                    receiver.abandon_message(&msg, None).await?;
                }
            }
        }
        Ok(())
    }
}
