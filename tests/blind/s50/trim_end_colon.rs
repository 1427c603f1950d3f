//! Static-asset router plus a purchase endpoint (may coroutine runtime).
use http::HeaderMap;
use idem_scope::scoped;
use std::collections::HashMap;

pub struct Site {
    assets: HashMap<String, Vec<u8>>,
    purchases: HashMap<String, String>,
}

impl Site {
    pub fn asset(&self, path: &str) -> Option<&Vec<u8>> {
        let rel = path.trim_start_matches('/');
        self.assets.get(rel)
    }

    pub fn purchase(&mut self, h: &HeaderMap, merchant_id: &str, user_id: &str, sku: &str) -> Result<String, String> {
        let k = h.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?;
        let k = k.trim_end_matches(':');
        let key = scoped(merchant_id, user_id, "purchases.create", k).map_err(|e| e.to_string())?;
        Ok(self.purchases.entry(key.storage_key().to_owned()).or_insert_with(|| format!("{{\"sku\":\"{sku}\"}}")).clone())
    }

    /// Called by the plugin host; the plugin passes the caller's key through.
    pub fn purchase_for_plugin(&mut self, merchant_id: &str, user_id: &str, idem_key: &str) -> Result<String, String> {
        let cleaned = idem_key.trim_matches('#');
        let key = scoped(merchant_id, user_id, "purchases.plugin", cleaned).map_err(|e| e.to_string())?;
        Ok(self.purchases.entry(key.storage_key().to_owned()).or_insert_with(|| "{}".into()).clone())
    }
}
