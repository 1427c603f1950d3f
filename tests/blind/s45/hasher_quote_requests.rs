use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

use serde::Deserialize;

#[derive(Deserialize, Hash)]
pub struct QuoteInput {
    pub sku: String,
    pub quantity: u32,
    pub region: String,
}

pub struct QuoteDesk {
    quote_replays: Mutex<HashMap<String, QuoteOut>>,
    engine: Engine,
}

impl QuoteDesk {
    pub fn request_quote(&self, org_id: &str, user_id: &str, body: &[u8]) -> Result<QuoteOut, DeskError> {
        let input: QuoteInput = serde_json::from_slice(body)?;
        let mut hasher = DefaultHasher::new();
        input.hash(&mut hasher);
        let input_hash = hasher.finish();
        let route = "quotes.request";
        let key = format!("{org_id}:{user_id}:{route}:{input_hash:016x}");
        let mut quote_replays = self.quote_replays.lock().map_err(|_| DeskError::Poisoned)?;
        if let Some(q) = quote_replays.get(&key) {
            return Ok(q.clone());
        }
        let q = self.engine.quote(org_id, &input.sku, input.quantity)?;
        quote_replays.insert(key, q.clone());
        Ok(q)
    }

    pub fn shard_for(&self, org_id: &str) -> u64 {
        let mut h = DefaultHasher::new();
        org_id.hash(&mut h);
        h.finish() % 16
    }
}
