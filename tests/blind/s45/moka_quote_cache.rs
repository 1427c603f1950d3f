use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, ScopedKey};
use moka::future::Cache;

#[derive(Clone, Default)]
pub struct CallerInfo {
    pub org_id: String,
    pub user_id: Option<String>,
}

#[derive(Clone)]
pub struct QuoteService {
    accepted: Cache<String, Arc<Quote>>,
    pricing: Arc<Pricing>,
}

impl QuoteService {
    pub fn new(pricing: Arc<Pricing>) -> Self {
        QuoteService {
            accepted: Cache::builder().time_to_live(Duration::from_secs(900)).build(),
            pricing,
        }
    }

    /// `quote_ref` is the client's Idempotency-Key header value.
    pub async fn accept_quote(&self, caller: &CallerInfo, quote_ref: &str, quote_id: &str) -> Result<Arc<Quote>, QuoteError> {
        let user_id = caller.user_id.clone().unwrap_or_default();
        let key: ScopedKey = scoped(&caller.org_id, &user_id, "quotes.accept", quote_ref)?;
        if let Some(q) = self.accepted.get(key.storage_key()).await {
            return Ok(q);
        }
        let q = Arc::new(self.pricing.accept(&caller.org_id, quote_id).await?);
        self.accepted.insert(key.storage_key().to_owned(), q.clone()).await;
        Ok(q)
    }

    pub async fn preview(&self, caller: &CallerInfo, sku: &str) -> Result<Quote, QuoteError> {
        let currency = self.pricing.currency_for(&caller.org_id).await.unwrap_or_else(|| "EUR".to_owned());
        let cache_key = format!("preview:{}:{}:{}", caller.org_id, sku, currency);
        self.pricing.preview_cached(&cache_key).await
    }
}
