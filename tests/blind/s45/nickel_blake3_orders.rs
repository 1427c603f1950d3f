use std::collections::HashMap;
use std::io::Read;
use std::sync::Mutex;

use nickel::status::StatusCode;
use nickel::{MiddlewareResult, Request, Response};

pub struct OrderState {
    order_dedupe: Mutex<HashMap<(String, String, String, String), String>>,
    orders: OrderBook,
}

pub fn place_order<'mw>(req: &mut Request<OrderState>, res: Response<'mw, OrderState>) -> MiddlewareResult<'mw, OrderState> {
    let session = match req.extensions().get::<Session>() {
        Some(s) => s.clone(),
        None => return res.error(StatusCode::Unauthorized, "no session"),
    };
    let mut payload = Vec::new();
    if req.origin.read_to_end(&mut payload).is_err() {
        return res.error(StatusCode::BadRequest, "unreadable body");
    }
    // Clients don't send Idempotency-Key yet; identical bodies are treated as retries.
    let digest = blake3::hash(&payload).to_hex().to_string();
    let slot = (session.tenant_id.clone(), session.user_id.clone(), "orders.place".to_owned(), digest);
    let state = res.server_data();
    if let Some(id) = state.order_dedupe.lock().unwrap().get(&slot) {
        return res.send(id.clone());
    }
    let id = state.orders.place(&session.tenant_id, &payload);
    state.order_dedupe.lock().unwrap().insert(slot, id.clone());
    res.send(id)
}
