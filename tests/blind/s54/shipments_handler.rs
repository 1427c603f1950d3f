use std::sync::Arc;
use std::time::Duration;

use gatehouse::rpc::{ApiError, CallCtx, Handler, Request};
use idem_scope::scoped;
use mini_moka::sync::Cache;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Shipment {
    pub id: String,
    pub carrier: String,
    pub label_url: String,
}

#[derive(Deserialize)]
struct ShipmentSpec {
    order_id: String,
    carrier: Option<String>,
}

pub struct CreateShipment {
    recent: Cache<String, Arc<Shipment>>,
    carriers: Arc<dyn carriers::Router + Send + Sync>,
}

impl CreateShipment {
    pub fn new(carriers: Arc<dyn carriers::Router + Send + Sync>) -> Self {
        let recent = Cache::builder()
            .max_capacity(20_000)
            .time_to_live(Duration::from_secs(6 * 3600))
            .build();
        Self { recent, carriers }
    }
}

impl Handler for CreateShipment {
    type Output = Shipment;

    fn call(&self, req: &Request, ctx: &CallCtx) -> Result<Shipment, ApiError> {
        let raw = req.header("Idempotency-Key").ok_or(ApiError::MissingIdempotencyKey)?;
        let mut key = raw.trim_matches('"').to_owned();
        key.retain(|c| c != '\u{1e}');
        let sk = scoped(&ctx.tenant_id, &ctx.caller_id, "shipments.create", &key)
            .map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let cache_key = sk.storage_key().to_owned();

        if let Some(hit) = self.recent.get(&cache_key) {
            return Ok((*hit).clone());
        }
        let spec: ShipmentSpec = req.json()?;
        let carrier = spec.carrier.as_deref().unwrap_or("default");
        let shipment = self.carriers.book(carrier, &ctx.tenant_id, &spec.order_id)?;
        self.recent.insert(cache_key, Arc::new(shipment.clone()));
        Ok(shipment)
    }
}
