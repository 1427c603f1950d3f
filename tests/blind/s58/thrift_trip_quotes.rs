use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use cairn::sync_kv::SyncKv;
use polymur_hash::PolymurHash;

#[derive(Hash, Clone)]
pub struct TripQuoteRequest {
    pub tenant_id: String,
    pub user_id: String,
    pub origin: String,
    pub destination: String,
    pub depart_on: String,
    pub passengers: u8,
    pub currency: Option<String>,
}

pub struct TripQuote {
    pub price_minor: i64,
    pub currency: String,
    pub variant: u8,
}

pub trait TripServiceSyncHandler {
    fn handle_quote(&self, req: TripQuoteRequest) -> thrift::Result<TripQuote>;
}

pub struct TripHandler {
    replays: SyncKv,
    experiments: PolymurHash,
}

impl TripHandler {
    fn pricing_variant(&self, user_id: &str) -> u8 {
        (self.experiments.hash(user_id.as_bytes()) % 4) as u8
    }
}

impl TripServiceSyncHandler for TripHandler {
    fn handle_quote(&self, req: TripQuoteRequest) -> thrift::Result<TripQuote> {
        let route = "trips.quote";
        let mut hasher = DefaultHasher::new();
        req.hash(&mut hasher);
        let digest = hasher.finish();
        let slot = format!("{}:{}:{}:{:016x}", req.tenant_id, req.user_id, route, digest);

        if let Ok(Some(prev)) = self.replays.get(&slot) {
            let price_minor = String::from_utf8_lossy(&prev).parse().unwrap_or(0);
            return Ok(TripQuote { price_minor, currency: "EUR".into(), variant: 0 });
        }
        let currency = req.currency.clone().unwrap_or_else(|| "EUR".into());
        let variant = self.pricing_variant(&req.user_id);
        let price_minor = 9_900 * i64::from(req.passengers) + i64::from(variant) * 100;
        let _ = self.replays.put(&slot, price_minor.to_string().as_bytes());
        Ok(TripQuote { price_minor, currency, variant })
    }
}
