use std::collections::HashMap;
use std::sync::Arc;

use idem_scope::{scoped, ScopeError, ScopedKey};
use kestrel::{Exchange, Outcome, Status};
use tessera::kv::Kv;

use crate::carriers::{CarrierEvent, Delivery};

type KeyFn = Box<dyn Fn(&Delivery) -> Result<ScopedKey, ScopeError> + Send + Sync>;

pub struct CallbackRouter {
    kv: Arc<Kv>,
    on_redelivery: KeyFn,
    handlers: HashMap<&'static str, fn(&Delivery) -> Vec<u8>>,
}

impl CallbackRouter {
    pub fn new(kv: Arc<Kv>) -> Self {
        let on_redelivery: KeyFn = Box::new(|d: &Delivery| scoped(&d.tenant_id, &d.caller_id, "carrier_update", &d.delivery_id));
        let mut handlers: HashMap<&'static str, fn(&Delivery) -> Vec<u8>> = HashMap::new();
        handlers.insert("picked_up", |d| format!("picked:{}", d.parcel_id).into_bytes());
        handlers.insert("delivered", |d| format!("delivered:{}", d.parcel_id).into_bytes());
        Self { kv, on_redelivery, handlers }
    }

    /// Client-initiated status amendments.
    pub async fn amend(&self, ex: &Exchange) -> Outcome {
        let (Some(who), Some(retry)) = (ex.identity(), ex.header("Idempotency-Key")) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "carrier_update", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if self.kv.exists(key.storage_key()).await.unwrap_or(false) {
            return Outcome::status(Status::OK);
        }
        let _ = self.kv.put(key.storage_key(), ex.body().to_vec()).await;
        Outcome::status(Status::ACCEPTED)
    }

    pub async fn on_event(&self, event: CarrierEvent) {
        let CarrierEvent::Redelivered(delivery) = event else {
            log::debug!("ignoring carrier event {:?}", event.kind());
            return;
        };
        let Ok(key) = (self.on_redelivery)(&delivery) else { return };
        if self.kv.exists(key.storage_key()).await.unwrap_or(false) {
            return;
        }
        let Some(handler) = self.handlers.get(delivery.status.as_str()) else { return };
        log::info!("carrier delivery {} for parcel {} processed", delivery.delivery_id, delivery.parcel_id);
        let _ = self.kv.put(key.storage_key(), handler(&delivery)).await;
    }
}
