use futures::TryStreamExt;
use idem_scope::{scoped, scoped_server};
use pulsar::{Consumer, DeserializeMessage, Payload, Pulsar, SubType, TokioExecutor};
use serde::Deserialize;

#[derive(Deserialize)]
pub struct FulfilCommand {
    pub tenant_id: String,
    pub actor: String,
    pub order_id: String,
}

#[derive(Deserialize)]
pub struct WarehouseEvent {
    pub event_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub order_id: String,
}

impl DeserializeMessage for WarehouseEvent {
    type Output = Result<WarehouseEvent, serde_json::Error>;
    fn deserialize_message(payload: &Payload) -> Self::Output {
        serde_json::from_slice(&payload.data)
    }
}

pub struct Fulfilment {
    records: FulfilRecords,
    wms: WmsClient,
}

impl Fulfilment {
    /// Commands relayed from the public API; the gateway copies the HTTP header into a message property.
    pub async fn on_command(&self, props: &[(String, String)], cmd: FulfilCommand) -> Result<(), FulfilError> {
        let client_key = props
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("Idempotency-Key"))
            .map(|(_, v)| v.clone())
            .ok_or(FulfilError::MissingKey)?;
        let key = scoped(&cmd.tenant_id, &cmd.actor, "orders.fulfil", &client_key)?;
        if self.records.lookup(&key).await?.is_some() {
            return Ok(());
        }
        let shipment = self.wms.ship(&cmd.tenant_id, &cmd.order_id).await?;
        self.records.save(&key, &shipment).await?;
        Ok(())
    }

    pub async fn consume(&self, pulsar: Pulsar<TokioExecutor>) -> Result<(), FulfilError> {
        let mut consumer: Consumer<WarehouseEvent, _> = pulsar
            .consumer()
            .with_topic("persistent://ops/wms/events")
            .with_subscription("fulfilment")
            .with_subscription_type(SubType::Shared)
            .build()
            .await?;
        while let Some(msg) = consumer.try_next().await? {
            let evt = msg.deserialize()?;
            let key = scoped_server(&evt.tenant_id, &evt.user_id, "orders.fulfil", &evt.event_id)?;
            if self.records.lookup(&key).await?.is_none() {
                let shipment = self.wms.ship(&evt.tenant_id, &evt.order_id).await?;
                self.records.save(&key, &shipment).await?;
            }
            consumer.ack(&msg).await?;
        }
        Ok(())
    }
}
