//! CloudEvents sink for the fulfilment service; HTTP clients and the event bus both create shipments.
use cloudevents::{AttributesReader, Event};
use http::HeaderMap;
use idem_scope::scoped;
use std::collections::BTreeMap;
use std::sync::RwLock;

pub struct Fulfilment {
    shipments: RwLock<BTreeMap<String, String>>,
    seen_sources: RwLock<BTreeMap<String, u64>>,
}

impl Fulfilment {
    fn create(&self, key: &str, order: &str) -> String {
        let mut s = self.shipments.write().unwrap();
        s.entry(key.to_owned()).or_insert_with(|| format!("{{\"shipment_for\":\"{order}\"}}")).clone()
    }

    pub fn http_create(&self, h: &HeaderMap, tenant_id: &str, user_id: &str, order: &str) -> Result<String, String> {
        let k = h.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?;
        let key = scoped(tenant_id, user_id, "shipments.create", k).map_err(|e| e.to_string())?;
        Ok(self.create(key.storage_key(), order))
    }

    pub fn on_event(&self, event: Event) -> Result<String, String> {
        let tenant_id = event.extension("tenantid").map(|v| v.to_string()).ok_or("no tenant")?;
        let order = event.subject().ok_or("no subject")?.to_owned();
        log::info!("cloudevent id={} source={}", event.id(), event.source());
        *self.seen_sources.write().unwrap().entry(event.source().to_string()).or_insert(0) += 1;
        let key = scoped(&tenant_id, "order-bus", "shipments.create", event.id()).map_err(|e| e.to_string())?;
        Ok(self.create(key.storage_key(), &order))
    }
}
