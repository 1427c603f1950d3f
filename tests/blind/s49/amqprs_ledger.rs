//! RabbitMQ consumer applying ledger entries exactly once (amqprs).
use amqprs::channel::{BasicAckArguments, BasicRejectArguments, Channel};
use amqprs::consumer::AsyncConsumer;
use amqprs::{BasicProperties, Deliver};

pub struct LedgerConsumer<S> {
    idem: S,
    tenant: String,
    principal: String,
}

#[async_trait::async_trait]
impl<S: crate::idem::Store + Send + Sync> AsyncConsumer for LedgerConsumer<S> {
    async fn consume(&mut self, channel: &Channel, deliver: Deliver, props: BasicProperties, content: Vec<u8>) {
        let tag = deliver.delivery_tag();
        let Some(message_id) = props.message_id().cloned() else {
            let _ = channel.basic_reject(BasicRejectArguments::new(tag, false)).await;
            return;
        };
        let key = match idem_scope::scoped_server(&self.tenant, &self.principal, "ledger.apply", &message_id) {
            Ok(k) => k,
            Err(_) => return,
        };

        self.idem.reserve(key.storage_key()).await.ok();
        let entry: crate::ledger::Entry = match serde_json::from_slice(&content) {
            Ok(e) => e,
            Err(err) => {
                tracing::warn!(%message_id, %err, "undecodable ledger entry");
                return;
            }
        };
        crate::ledger::apply(&self.tenant, &entry).await;
        self.idem.mark_done(key.storage_key(), b"applied").await.ok();
        let _ = channel.basic_ack(BasicAckArguments::new(tag, false)).await;
    }
}

pub struct AuditConsumer<S> {
    idem: S,
    tenant: String,
    principal: String,
}

#[async_trait::async_trait]
impl<S: crate::idem::Store + Send + Sync> AsyncConsumer for AuditConsumer<S> {
    async fn consume(&mut self, channel: &Channel, deliver: Deliver, props: BasicProperties, content: Vec<u8>) {
        let tag = deliver.delivery_tag();
        let Some(message_id) = props.message_id().cloned() else { return };
        let Ok(key) = idem_scope::scoped_server(&self.tenant, &self.principal, "audit.append", &message_id) else {
            return;
        };
        self.idem.reserve(key.storage_key()).await.ok();
        let guard = scopeguard::guard(key.storage_key().to_owned(), |k| {
            futures::executor::block_on(self.idem.release(&k)).ok();
        });
        let Ok(event) = serde_json::from_slice::<crate::audit::Event>(&content) else {
            return;
        };
        crate::audit::append(&self.tenant, &event).await;
        self.idem.mark_done(key.storage_key(), b"appended").await.ok();
        let _ = scopeguard::ScopeGuard::into_inner(guard);
        let _ = channel.basic_ack(BasicAckArguments::new(tag, false)).await;
    }
}
