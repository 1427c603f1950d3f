use std::sync::Arc;

use azure_messaging_eventhubs::models::{AmqpValue, ReceivedEventData};
use azure_messaging_eventhubs::{ConsumerClient, OpenReceiverOptions, StartPosition};
use cistern::vat::Vat;
use futures::StreamExt;
use idem_scope::{scoped, Problem};
use wherry::auth::Caller;
use wherry::{Ctx, Reply, Status};

pub struct LedgerIngest {
    vat: Arc<Vat>,
    checkpoints: Arc<Vat>,
    ledger: Arc<ledger::Writer>,
}

fn prop(event: &ReceivedEventData, name: &str) -> Option<String> {
    match event.event_data().properties()?.get(name)? {
        AmqpValue::String(s) => Some(s.clone()),
        _ => None,
    }
}

impl LedgerIngest {
    /// Entries posted directly by API clients.
    pub async fn post_entry(&self, ctx: Ctx, caller: Caller) -> Result<Reply, Problem> {
        let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "ledger_entry", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        if let Some(done) = self.vat.get(sk.storage_key()).await.ok().flatten() {
            return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
        }
        let entry = self.ledger.append(&caller.tenant_id, ctx.body()).await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let _ = self.vat.put(sk.storage_key(), entry.to_json()).await;
        Ok(Reply::bytes(Status::CREATED, entry.to_json()))
    }

    /// Entries mirrored from the card processor through Event Hubs; the hub
    /// redelivers after a consumer restart, so each message is applied once.
    pub async fn consume(&self, consumer: &ConsumerClient, partition_id: &str) -> azure_core::Result<()> {
        let options = OpenReceiverOptions { start_position: Some(StartPosition::default()), ..Default::default() };
        let receiver = consumer.open_receiver_on_partition(partition_id.to_owned(), Some(options)).await?;
        let mut stream = receiver.stream_events();
        while let Some(event) = stream.next().await {
            let event = event?;
            let (Some(tenant_id), Some(user_id)) = (prop(&event, "tenant_id"), prop(&event, "user_id")) else {
                tracing::warn!(partition_id, "event without identity properties skipped");
                continue;
            };
            let Some(message_id) = event.event_data().message_id().map(|id| id.to_string()) else {
                continue;
            };
            let sk = match scoped(&tenant_id, &user_id, "ledger_entry", &message_id) {
                Ok(sk) => sk,
                Err(e) => {
                    tracing::warn!(error = %e, "unscopable event skipped");
                    continue;
                }
            };
            if self.vat.get(sk.storage_key()).await.ok().flatten().is_none() {
                if let Ok(entry) = self.ledger.append(&tenant_id, event.event_data().body().unwrap_or_default()).await {
                    let _ = self.vat.put(sk.storage_key(), entry.to_json()).await;
                }
            }
            if let Some(seq) = event.sequence_number() {
                let checkpoint_key = format!("ledger-consumer/{}/{}", consumer.get_eventhub_name(), partition_id);
                let _ = self.checkpoints.put(&checkpoint_key, seq.to_be_bytes().to_vec()).await;
            }
        }
        Ok(())
    }
}
