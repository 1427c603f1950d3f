use std::sync::Arc;

use idem_scope::{scoped, IdempotencyKey, Problem};
use kestrel::extract::{Head, Json};
use kestrel::{Outcome, Status};
use serde::Deserialize;
use tessera::kv::Kv;

use crate::shop::{Cart, OrderDesk, Shop};
use crate::telemetry;

#[derive(Deserialize)]
pub struct CheckoutBody {
    pub cart_id: String,
    pub email: Option<String>,
}

pub struct Checkout {
    kv: Arc<Kv>,
    orders: Arc<OrderDesk>,
}

impl Checkout {
    pub async fn checkout(&self, head: Head, shop: Shop, Json(body): Json<CheckoutBody>) -> Outcome {
        let session = head.session();
        let principal = session.as_ref().map(|s| s.customer_id.as_str()).unwrap_or("anonymous");
        let audience = if session.is_some() { "known" } else { "anonymous" };
        telemetry::count("checkout_attempts", &[("shopper", audience)]);
        let raw = head.headers.get("Idempotency-Key").map(|v| v.as_bytes().to_vec());
        let Some(client_key) = raw.as_deref().and_then(|r| IdempotencyKey::parse_lenient(r).ok()) else {
            return Outcome::problem(Problem::missing_key());
        };
        let key = match scoped(&shop.merchant_id, principal, "checkout", client_key.as_str()) {
            Ok(k) => k,
            Err(e) => return Outcome::problem(Problem::invalid_key(&e.to_string())),
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let cart: Cart = match self.orders.cart(&shop.merchant_id, &body.cart_id).await {
            Some(c) => c,
            None => return Outcome::status(Status::NOT_FOUND),
        };
        let order = self.orders.place(&shop.merchant_id, &cart, body.email.as_deref()).await;
        let bytes = kestrel::json::to_vec(&order).unwrap_or_default();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::CREATED, bytes)
    }
}
