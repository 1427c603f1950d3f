use std::sync::Arc;

use kestrel::extract::{Head, Json};
use kestrel::{Outcome, Status};
use serde::{Deserialize, Serialize};
use tessera::kv::Kv;

use crate::carriers::{Booking, CarrierHub};

#[derive(Deserialize, Serialize, Clone)]
pub struct BookShipment {
    pub parcels: Vec<(u32, u32, u32, u32)>,
    pub from_postcode: String,
    pub to_postcode: String,
    pub service: String,
}

pub struct ShipmentApi {
    kv: Arc<Kv>,
    hub: Arc<CarrierHub>,
}

fn body_digest(req: &BookShipment) -> [u8; 32] {
    let mut out = [0u8; 32];
    let bytes = serde_ipld_dagcbor::to_vec(req).unwrap_or_default();
    blake::hash(256, &bytes, &mut out).expect("blake-256 output size");
    out
}

impl ShipmentApi {
    pub async fn book(&self, head: Head, Json(req): Json<BookShipment>) -> Outcome {
        let Some(who) = head.identity() else {
            return Outcome::status(Status::UNAUTHORIZED);
        };
        let tenant_hash = {
            let mut out = [0u8; 32];
            let _ = blake::hash(256, who.tenant_id.as_bytes(), &mut out);
            out
        };
        let partition = tenant_hash[0] % 16;
        let digest = body_digest(&req);
        let slot = serde_ipld_dagcbor::to_vec(&(&who.tenant_id, &who.user_id, "book_shipment", digest)).unwrap_or_default();
        let store = self.kv.partition(partition);
        if let Ok(Some(prev)) = store.get(&slot).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let booking: Booking = match self.hub.book(&who.tenant_id, &req.from_postcode, &req.to_postcode, &req.parcels).await {
            Ok(b) => b,
            Err(e) => return Outcome::text(Status::BAD_GATEWAY, e.to_string()),
        };
        let bytes = kestrel::json::to_vec(&booking).unwrap_or_default();
        let _ = store.put(&slot, bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
