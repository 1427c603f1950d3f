//! Publishes box-office domain events to the group's EventBridge bus so that
//! marketing and finance can subscribe. Nothing here is stored.
use aws_sdk_eventbridge::types::PutEventsRequestEntry;
use aws_sdk_eventbridge::Client;
use serde::Serialize;
use uuid::Uuid;

#[derive(Serialize)]
pub struct PlacedOrder {
    pub order_id: String,
    pub org_id: String,
    pub user_id: String,
    pub total_minor: i64,
}

pub struct DomainEvents {
    pub client: Client,
    pub bus: String,
}

impl DomainEvents {
    /// `idempotency_key` is the key the patron's request carried; finance uses
    /// it to tie refunds to the original purchase.
    pub async fn order_placed(&self, order: &PlacedOrder, idempotency_key: &str) -> Result<String, aws_sdk_eventbridge::Error> {
        let event_id = Uuid::new_v4().to_string();
        let detail = serde_json::json!({
            "eventId": event_id,
            "order": order,
            "idempotencyKey": idempotency_key,
            "trace": format!("{}/{}/{}", order.org_id, order.user_id, idempotency_key),
        });
        let entry = PutEventsRequestEntry::builder()
            .event_bus_name(&self.bus)
            .source("limelight.box-office")
            .detail_type("OrderPlaced")
            .resources(format!("order/{}", order.order_id))
            .detail(detail.to_string())
            .build();
        self.client.put_events().entries(entry).send().await?;
        tracing::info!(event_id = %event_id, order = %order.order_id, "order event published");
        Ok(event_id)
    }
}
