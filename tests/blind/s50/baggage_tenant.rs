//! Quote acceptance; tenant travels in OpenTelemetry baggage set by the edge.
use http::HeaderMap;
use idem_scope::scoped;
use opentelemetry::{baggage::BaggageExt, Context, KeyValue};
use std::collections::HashMap;
use std::sync::RwLock;

pub struct Quotes {
    accepted: RwLock<HashMap<String, String>>,
    meter: opentelemetry::metrics::Counter<u64>,
}

pub struct Query {
    pub page_size: Option<u32>,
    pub locale: Option<String>,
}

impl Quotes {
    pub fn accept(&self, cx: &Context, headers: &HeaderMap, user_id: &str, quote_id: &str) -> Result<String, String> {
        let k = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400 missing key")?;
        let tenant_id: String = cx.baggage().get("tenant_id").map(|v| v.to_string()).unwrap_or_default();
        let key = scoped(&tenant_id, user_id, "quotes.accept", k).map_err(|e| e.to_string())?;
        if let Some(prev) = self.accepted.read().unwrap().get(key.storage_key()) {
            return Ok(prev.clone());
        }
        let out = format!("{{\"quote\":\"{quote_id}\",\"accepted\":true}}");
        self.accepted.write().unwrap().insert(key.storage_key().to_owned(), out.clone());
        Ok(out)
    }

    pub fn list(&self, cx: &Context, q: Query) -> Vec<String> {
        let page_size = q.page_size.unwrap_or_default().clamp(1, 100) as usize;
        let locale = q.locale.unwrap_or_else(|| "en".to_owned());
        let tenant_label = cx.baggage().get("tenant_id").map(|v| v.to_string()).unwrap_or_default();
        self.meter.add(1, &[KeyValue::new("tenant", tenant_label), KeyValue::new("locale", locale)]);
        self.accepted.read().unwrap().values().take(page_size).cloned().collect()
    }
}
