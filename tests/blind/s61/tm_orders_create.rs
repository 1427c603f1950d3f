use std::hash::{Hash, Hasher as _};

use cht::HashMap as ConcurrentMap;
use hash32::{FnvHasher, Hasher as _};
use serde::{Deserialize, Serialize};
use sonyflake::Sonyflake;
use tamarind::auth::Caller;
use tamarind::extract::Json;
use tamarind::Reply;

#[derive(Deserialize, Hash)]
pub struct NewOrder {
    pub sku: String,
    pub quantity: u32,
    pub ship_to: String,
}

#[derive(Serialize, Clone)]
pub struct Placed {
    pub order_id: u64,
    pub sku: String,
}

type Slot = (String, String, &'static str, u32);

pub struct OrderApi {
    placed: ConcurrentMap<Slot, Placed>,
    ids: Sonyflake,
}

impl OrderApi {
    /// POST /v1/orders; the storefront double-submits on flaky mobile networks.
    pub fn create(&self, caller: Caller, Json(order): Json<NewOrder>) -> Result<Reply, Reply> {
        let digest_of = |o: &NewOrder| {
            let mut h = FnvHasher::default();
            o.hash(&mut h);
            h.finish32()
        };
        let slot = (caller.tenant_id.clone(), caller.user_id.clone(), "orders.create", digest_of(&order));
        if let Some(prev) = self.placed.get(&slot) {
            return Ok(Reply::json(200, &prev));
        }

        let order_id = self.ids.next_id().map_err(Reply::internal)?;
        let placed = Placed { order_id, sku: order.sku.clone() };
        let bytes = serde_json::to_vec(&placed).map_err(Reply::internal)?;
        let etag = format!("W/\"{:08x}\"", murmurhash32::murmurhash3(&bytes));
        self.placed.insert(slot, placed);
        Ok(Reply::raw(201, bytes).with_header("etag", &etag))
    }
}
