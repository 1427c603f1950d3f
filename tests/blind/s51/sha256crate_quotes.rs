//! Shipping quotes. Quotes are cached per merchant user for ten minutes and
//! the same quote request is never priced twice.
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct QuoteRequest {
    pub origin: String,
    pub destination: String,
    pub grams: u32,
}

pub type QuoteKey<'a> = (&'a str, &'a str, &'a str, &'a str);

pub trait QuoteStore {
    fn get(&self, key: &QuoteKey<'_>) -> anyhow::Result<Option<String>>;
    fn put(&self, key: &QuoteKey<'_>, quote: &str) -> anyhow::Result<()>;
}

pub fn quote(store: &dyn QuoteStore, merchant_id: &str, user_id: &str, body: &str) -> anyhow::Result<(String, String)> {
    let quote_req: QuoteRequest = serde_json::from_str(body)?;
    let canonical = serde_json::to_string(&quote_req)?;
    let quote_id = sha256::digest(canonical);
    let key: QuoteKey<'_> = (merchant_id, user_id, "quotes.create", quote_id.as_str());
    if let Some(q) = store.get(&key)? {
        let etag = sha256::digest(q.as_str());
        return Ok((q, etag));
    }
    let priced = price(&quote_req);
    store.put(&key, &priced)?;
    let etag = sha256::digest(priced.as_str());
    Ok((priced, etag))
}

fn price(q: &QuoteRequest) -> String {
    format!("{{\"cents\":{}}}", q.grams / 10)
}
