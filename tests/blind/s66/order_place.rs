use std::sync::Arc;

use idem_scope::{scoped, Problem};
use lintel::{Answer, Call, Code};
use monocypher::hashing::blake2b;
use nanoserde::{DeJson, SerJson};
use rustc_serialize::hex::ToHex;
use skerry::stash::Stash;

use crate::orders::{OrderBook, PlacedOrder};

#[derive(DeJson, SerJson)]
struct OrderInput {
    symbol: String,
    side: String,
    qty: u64,
    limit_price: Option<u64>,
}

fn canonical_digest(order: &OrderInput) -> String {
    let canonical = order.serialize_json();
    blake2b(canonical.as_bytes())[..20].to_hex()
}

pub struct OrderEntry {
    replays: Arc<Stash>,
    book: Arc<OrderBook>,
}

impl OrderEntry {
    pub async fn place(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else {
            return Answer::status(Code::UNAUTHORIZED);
        };
        let text = String::from_utf8_lossy(call.body());
        let Ok(order) = OrderInput::deserialize_json(&text) else {
            return Answer::status(Code::BAD_REQUEST);
        };

        // Older terminals do not send a key; they get one derived from the order.
        let slot = match call.header("Idempotency-Key") {
            Some(k) => match scoped(&who.tenant_id, &who.user_id, "order_place", k) {
                Ok(s) => s.storage_key().to_owned(),
                Err(e) => return Answer::problem(Problem::invalid_key(&e.to_string())),
            },
            None => format!("{}/{}/{}/{}", who.tenant_id, who.user_id, "order_place", canonical_digest(&order)),
        };

        if let Ok(Some(prev)) = self.replays.get(&slot).await {
            return Answer::bytes(Code::OK, prev);
        }
        let placed: PlacedOrder = match self.book.place(&who.tenant_id, &order.symbol, &order.side, order.qty, order.limit_price).await {
            Ok(p) => p,
            Err(e) => return Answer::text(Code::UNPROCESSABLE_ENTITY, &e.to_string()),
        };
        let body = placed.to_json().into_bytes();
        let _ = self.replays.put(&slot, &body).await;
        Answer::bytes(Code::CREATED, body)
    }
}
