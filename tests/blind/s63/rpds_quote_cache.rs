use std::sync::Arc;

use arc_cell::ArcCell;
use bytes::Bytes;
use idem_scope::Problem;
use rpds::HashTrieMapSync;
use wherry::auth::Caller;
use wherry::{Ctx, Reply, Status};

type QuoteKey = (String, String);
type OrderKey = (String, String, String, String);

/// Copy-on-write maps: readers grab a snapshot, writers swap in a new version.
pub struct PricingReplies {
    quotes: ArcCell<HashTrieMapSync<QuoteKey, Bytes>>,
    orders: ArcCell<HashTrieMapSync<OrderKey, Bytes>>,
    pricing: Arc<pricing::Engine>,
}

impl PricingReplies {
    pub fn request_quote(&self, ctx: &Ctx, caller: &Caller) -> Result<Reply, Problem> {
        let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?.to_owned();
        let quote_key: QuoteKey = (caller.tenant_id.clone(), client_key);

        let snapshot = self.quotes.get();
        if let Some(body) = snapshot.get(&quote_key) {
            return Ok(Reply::bytes(Status::OK, body.to_vec()).header("Idempotent-Replayed", "true"));
        }
        let quote = self.pricing.quote(&caller.tenant_id, ctx.body()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let body = Bytes::from(quote.to_json());
        self.quotes.set(Arc::new(snapshot.insert(quote_key, body.clone())));
        Ok(Reply::bytes(Status::CREATED, body.to_vec()))
    }

    pub fn place_order(&self, ctx: &Ctx, caller: &Caller) -> Result<Reply, Problem> {
        let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?.to_owned();
        let order_key: OrderKey = (caller.tenant_id.clone(), caller.user_id.clone(), "place_order".to_owned(), client_key);

        let snapshot = self.orders.get();
        if let Some(body) = snapshot.get(&order_key) {
            return Ok(Reply::bytes(Status::OK, body.to_vec()).header("Idempotent-Replayed", "true"));
        }
        let order = self.pricing.order(&caller.tenant_id, ctx.body()).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let body = Bytes::from(order.to_json());
        self.orders.set(Arc::new(snapshot.insert(order_key, body.clone())));
        Ok(Reply::bytes(Status::CREATED, body.to_vec()))
    }
}
