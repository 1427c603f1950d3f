//! Checkout proxy in front of PayPal Orders v2. The client's Idempotency-Key
//! is forwarded as PayPal-Request-Id and remembered locally.
use std::collections::HashMap;

use http::HeaderMap;
use paypal_rs::api::orders::CreateOrder;
use paypal_rs::data::orders::OrderPayload;
use paypal_rs::{Client, HeaderParams};
use tokio::sync::RwLock;

pub struct Checkout {
    paypal: Client,
    orders_by_key: RwLock<HashMap<String, String>>,
}

impl Checkout {
    pub async fn create(&self, headers: &HeaderMap, payload: OrderPayload) -> anyhow::Result<String> {
        let idem = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;

        let mut map = self.orders_by_key.write().await;
        let slot = map.entry(idem.clone()).or_insert_with(String::new);
        if !slot.is_empty() {
            return Ok(slot.clone());
        }

        let req = CreateOrder::new(payload);
        let params = HeaderParams { request_id: Some(idem.clone()), ..Default::default() };
        let order = self.paypal.execute_ext(&req, params).await?;
        *slot = order.id.clone();
        Ok(order.id)
    }

    pub async fn status(&self, order_id: &str) -> anyhow::Result<String> {
        let cache_key = format!("paypal:order:{}", order_id);
        tracing::debug!(%cache_key, "status lookup");
        Ok(cache_key)
    }
}
