use std::sync::Arc;

use clru::CLruCache;
use corvid::extract::{FromRequestParts, Parts, Rejection};
use corvid::{Ctx, Json, Reply};
use parking_lot::Mutex;

use crate::orders::{NewOrder, OrderBook};

/// The raw `Idempotency-Key` request header.
pub struct ClientIdemKey(pub String);

impl FromRequestParts for ClientIdemKey {
    fn from_request_parts(parts: &Parts) -> Result<Self, Rejection> {
        let raw = parts
            .headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or(Rejection::bad_request("missing Idempotency-Key"))?;
        Ok(ClientIdemKey(raw.to_owned()))
    }
}

pub struct OrdersState {
    pub book: OrderBook,
    pub replay: Mutex<CLruCache<String, Vec<u8>>>,
    pub lines: Mutex<CLruCache<String, Vec<u8>>>,
}

fn compose(tenant_id: &str, user_id: &str, endpoint: &str, k: &ClientIdemKey) -> String {
    [tenant_id, user_id, endpoint, k.0.as_str()].join("\u{1e}")
}

pub async fn place_order(
    ctx: Ctx<Arc<OrdersState>>,
    key: ClientIdemKey,
    Json(input): Json<NewOrder>,
) -> Reply {
    let caller = ctx.caller()?;
    let slot = compose(&caller.tenant_id, &caller.user_id, "orders.place", &key);

    if let Some(hit) = ctx.state().replay.lock().get(&slot).cloned() {
        return Reply::bytes(200, hit).header("Idempotent-Replayed", "true");
    }

    let order = ctx.state().book.place(&caller.tenant_id, input).await?;
    let encoded = serde_json::to_vec(&order)?;
    ctx.state().replay.lock().put(slot, encoded.clone());

    let lines_key = format!("order:{}:lines", order.id);
    ctx.state()
        .lines
        .lock()
        .put(lines_key, serde_json::to_vec(&order.lines)?);

    Reply::bytes(201, encoded)
}
