//! Pluggable key derivation for the gift-card service (older module, pre idem-scope).
use http::HeaderMap;
use std::collections::HashMap;

type KeyFn = Box<dyn Fn(&str, &str) -> String + Send + Sync>;

pub struct GiftCards {
    key_fn: KeyFn,
    redeemed: HashMap<String, u64>,
    balance_cache: HashMap<String, u64>,
}

impl GiftCards {
    pub fn new() -> Self {
        Self {
            key_fn: Box::new(|tenant_id, k| format!("{tenant_id}:{k}")),
            redeemed: HashMap::new(),
            balance_cache: HashMap::new(),
        }
    }

    pub fn redeem(&mut self, h: &HeaderMap, tenant_id: &str, card: &str, cents: u64) -> Result<u64, String> {
        let k = h.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?;
        let slot = (self.key_fn)(tenant_id, k);
        Ok(*self.redeemed.entry(slot).or_insert_with(|| cents.min(card.len() as u64 * 100)))
    }

    pub fn balance(&mut self, tenant_id: &str, card: &str) -> u64 {
        let cache_key = [tenant_id, card].join(":");
        *self.balance_cache.entry(cache_key).or_insert(10_000)
    }

    /// Used by the batch importer; keys come from the import file.
    pub fn remember(&mut self, tenant_id: &str, user_id: &str, idem_key: &str, cents: u64) {
        let route = "giftcards.import";
        self.redeemed.insert(format!("{tenant_id}/{user_id}/{route}/{idem_key}"), cents);
    }
}
