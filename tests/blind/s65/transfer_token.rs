use std::sync::Arc;

use idem_scope::{scoped, ScopedKey};
use kestrel::extract::{Head, Json};
use kestrel::{Outcome, Status};
use serde::Deserialize;
use tessera::kv::Kv;

use crate::fx::{FxDesk, FxTicket};

#[derive(Deserialize)]
pub struct FxOrder {
    pub sell: String,
    pub buy: String,
    pub amount_minor: i64,
    pub rate_lock: Option<String>,
}

pub trait DedupeToken {
    fn dedupe_token(&self) -> String;
}

impl DedupeToken for FxOrder {
    fn dedupe_token(&self) -> String {
        let mut bytes = Vec::with_capacity(64);
        bytes.extend_from_slice(self.sell.as_bytes());
        bytes.extend_from_slice(self.buy.as_bytes());
        bytes.extend_from_slice(&self.amount_minor.to_be_bytes());
        format!("{:06x}", crc24::hash_raw(&bytes))
    }
}

pub struct FxApi {
    kv: Arc<Kv>,
    desk: Arc<FxDesk>,
}

impl FxApi {
    fn order_key(&self, tenant_id: &str, user_id: &str, order: &FxOrder) -> Option<ScopedKey> {
        scoped(tenant_id, user_id, "fx_order", &order.dedupe_token()).ok()
    }

    pub async fn place(&self, head: Head, Json(order): Json<FxOrder>) -> Outcome {
        let Some(who) = head.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let Some(key) = self.order_key(&who.tenant_id, &who.user_id, &order) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let bucket = crc24::hash_raw(who.user_id.as_bytes()) % 100;
        let flags_key = format!("flags/rollout/{bucket}");
        let fast_path = matches!(self.kv.get(&flags_key).await, Ok(Some(_)));
        let ticket: FxTicket = self.desk.execute(&who.tenant_id, &order.sell, &order.buy, order.amount_minor, fast_path).await;
        let bytes = kestrel::json::to_vec(&ticket).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
