use cataclysm::http::{Method, Request, Response};
use cataclysm::Shared;
use dunlin::kv::Kv;
use idem_scope::scoped;

pub enum OrderKind {
    Market,
    Limit,
}

pub struct OrderDesk {
    pub replays: Kv,
}

pub async fn place_order(req: Request, desk: Shared<OrderDesk>) -> Response {
    let key = match req.headers.get("Idempotency-Key").and_then(|v| v.first()) {
        Some(k) => k.clone(),
        None => return Response::bad_request(),
    };
    let (tenant, user) = match crate::auth::verify(&req) {
        Some(id) => (id.account_id, id.trader_id),
        None => return Response::unauthorized(),
    };
    let op = "order.market";
    let kind = if req.url().path().ends_with("/limit") { OrderKind::Limit } else { OrderKind::Market };
    let slot = match kind {
        OrderKind::Market => tenant.clone() + "|" + &user + "|" + op + "|" + &key,
        OrderKind::Limit => match scoped(&tenant, &user, "order.limit", &key) {
            Ok(sk) => format!("orders/{}", sk.storage_key()),
            Err(e) => return Response::bad_request().body(e.to_string()),
        },
    };
    if let Ok(Some(prev)) = desk.replays.get(&slot).await {
        return Response::ok().body(prev);
    }
    let placed = crate::matching::submit(&tenant, &user, req.content()).await;
    desk.replays.put(&slot, placed.clone()).await.ok();
    let _ = Method::Post;
    Response::created().body(placed)
}
