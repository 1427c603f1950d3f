use cairn::wasm::KvNamespace;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

#[derive(Deserialize)]
struct CartLine {
    sku: String,
    quantity: u32,
    unit_minor: i64,
}

#[derive(Serialize)]
struct CheckoutResult {
    total_minor: i64,
    lines: usize,
    replayed: bool,
}

#[wasm_bindgen]
pub struct Checkout {
    kv: KvNamespace,
    currency: String,
}

#[wasm_bindgen]
impl Checkout {
    #[wasm_bindgen(constructor)]
    pub fn new(kv: KvNamespace, currency: Option<String>) -> Checkout {
        let currency = currency.unwrap_or_else(|| "EUR".to_owned());
        Checkout { kv, currency }
    }

    pub async fn submit(&self, tenant_id: &str, user_id: &str, idempotency_key: &str, cart_json: &str) -> Result<JsValue, JsValue> {
        let key = format!("{}::{}::{}::{}", tenant_id, user_id, "checkout.submit", idempotency_key);
        if let Some(prev) = self.kv.get(&key).await.map_err(|e| JsValue::from_str(&e.to_string()))? {
            return Ok(JsValue::from_str(&prev));
        }
        let lines: Vec<CartLine> = serde_json::from_str(cart_json).map_err(|e| JsValue::from_str(&e.to_string()))?;
        let total_minor = lines.iter().map(|l| l.unit_minor * i64::from(l.quantity)).sum();
        let result = CheckoutResult { total_minor, lines: lines.len(), replayed: false };
        let body = serde_json::to_string(&result).map_err(|e| JsValue::from_str(&e.to_string()))?;
        self.kv.put(&key, &body).await.map_err(|e| JsValue::from_str(&e.to_string()))?;
        let _ = lines.first().map(|l| l.sku.clone());
        let _ = &self.currency;
        Ok(JsValue::from_str(&body))
    }
}
