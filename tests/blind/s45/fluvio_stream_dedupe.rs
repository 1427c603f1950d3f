use std::sync::Arc;

use dashmap::DashMap;
use fluvio::consumer::ConsumerConfigExtBuilder;
use fluvio::{Fluvio, Offset};
use futures::StreamExt;

pub struct ShipmentIngest {
    seen: Arc<DashMap<String, String>>,
    carrier: CarrierApi,
}

#[derive(serde::Deserialize)]
struct CarrierEvent {
    event_id: String,
    tenant_id: String,
    user_id: String,
    shipment_id: String,
}

impl ShipmentIngest {
    /// Manual booking via the REST gateway; `headers` are the raw request headers.
    pub fn book_manual(&self, headers: &[(String, String)], tenant_id: &str, user_id: &str, shipment_id: &str) -> Result<String, IngestError> {
        let booking_ref = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("X-Idempotency-Key"))
            .map(|(_, v)| v.as_str())
            .ok_or(IngestError::MissingKey)?;
        let route = "shipments.book";
        let k = format!("u:{tenant_id}:{user_id}:{route}:{booking_ref}");
        if let Some(prev) = self.seen.get(&k) {
            return Ok(prev.clone());
        }
        let label = self.carrier.book(tenant_id, shipment_id)?;
        self.seen.insert(k, label.clone());
        Ok(label)
    }

    pub async fn follow(&self, fluvio: &Fluvio) -> Result<(), IngestError> {
        let config = ConsumerConfigExtBuilder::default().topic("carrier-events").partition(0).offset_start(Offset::beginning()).build()?;
        let mut stream = fluvio.consumer_with_config(config).await?;
        while let Some(Ok(record)) = stream.next().await {
            let evt: CarrierEvent = serde_json::from_slice(record.value())?;
            let route = "shipments.book";
            let k = format!("s:{}:{}:{}:{}", evt.tenant_id, evt.user_id, route, evt.event_id);
            if self.seen.contains_key(&k) {
                continue;
            }
            let label = self.carrier.book(&evt.tenant_id, &evt.shipment_id)?;
            self.seen.insert(k, label);
        }
        Ok(())
    }
}
