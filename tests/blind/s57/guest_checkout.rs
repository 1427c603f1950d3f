use std::sync::Arc;

use corvid::{Ctx, Json, Reply};
use hashlink::LinkedHashMap;
use parking_lot::Mutex;
use serde::Deserialize;

use crate::cart::{CartService, Order};

const GUEST_PRINCIPAL: &str = "guest";
const MAX_ENTRIES: usize = 50_000;

#[derive(Deserialize)]
pub struct CheckoutInput {
    pub cart_id: String,
    pub email: String,
    pub shipping: String,
}

pub struct CheckoutState {
    pub carts: CartService,
    pub replays: Mutex<LinkedHashMap<String, Order>>,
}

fn evict_oldest(map: &mut LinkedHashMap<String, Order>) {
    while map.len() > MAX_ENTRIES {
        map.pop_front();
    }
}

pub async fn checkout(ctx: Ctx<Arc<CheckoutState>>, Json(input): Json<CheckoutInput>) -> Reply {
    let store = ctx.store_identity()?;
    let principal_id = ctx.session().map(|s| s.customer_id.clone()).unwrap_or_else(|| GUEST_PRINCIPAL.to_string());
    let Some(client_key) = ctx.header("Idempotency-Key") else {
        return Reply::problem(400, "Idempotency-Key header is required");
    };
    let key = match idem_scope::scoped(&store.merchant_id, &principal_id, "checkout.submit", &client_key) {
        Ok(k) => k.storage_key().to_owned(),
        Err(e) => return Reply::problem(400, &e.to_string()),
    };

    if let Some(order) = ctx.state().replays.lock().get(&key).cloned() {
        return Reply::json(200, &order).header("Idempotent-Replayed", "true");
    }

    let order = match ctx.state().carts.checkout(&store.merchant_id, &input.cart_id, &input.email, &input.shipping).await {
        Ok(o) => o,
        Err(e) => return Reply::problem(422, &e.to_string()),
    };
    let mut replays = ctx.state().replays.lock();
    replays.insert(key, order.clone());
    evict_oldest(&mut replays);
    Reply::json(201, &order)
}
