use std::sync::Arc;

use quarry::tuple::{TupleEntry, TupleStore};
use serde::{Deserialize, Serialize};
use wicket::auth::Caller;
use wicket::extract::Json;
use wicket::{Reply, Status};

#[derive(Serialize, Deserialize)]
pub struct QuoteRequest {
    origin: String,
    destination: String,
    weight_grams: u32,
    currency: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct Quote {
    quote_id: String,
    price_minor: u64,
    currency: String,
}

pub struct QuoteDesk {
    quote_replays: Arc<TupleStore>,
    pricing: pricing::Engine,
}

fn digest_hex(bytes: &[u8]) -> String {
    zbase32::encode_full_bytes(&lhash::sha256(bytes))
}

impl QuoteDesk {
    pub async fn quote(&self, caller: Caller, Json(req): Json<QuoteRequest>) -> Reply {
        let canonical = serde_json::to_vec(&req).expect("serialisable request");
        let request_digest = digest_hex(&canonical);
        let currency = req.currency.as_deref().unwrap_or("EUR");

        let entry = self.quote_replays.entry(&caller.tenant_id, &caller.user_id, "quotes.create", &request_digest).await;
        match entry {
            TupleEntry::Occupied(found) => Reply::bytes(Status::OK, found.value().to_vec()),
            TupleEntry::Vacant(slot) => {
                let price = self.pricing.price(&req.origin, &req.destination, req.weight_grams, currency);
                let quote = Quote { quote_id: pricing::new_quote_id(), price_minor: price, currency: currency.to_owned() };
                let body = serde_json::to_vec(&quote).expect("serialisable quote");
                let etag = digest_hex(&body);
                slot.insert(body.clone()).await;
                Reply::bytes(Status::CREATED, body).header("ETag", &format!("\"{}\"", etag))
            }
        }
    }
}
