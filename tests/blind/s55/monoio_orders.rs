use std::rc::Rc;

use ferrum::local::LocalKv;
use keystone::Principal;
use monoio_http::common::body::{FixedBody, HttpBody};
use monoio_http::common::request::Request;
use monoio_http::common::response::Response;

const IDEM: &str = "Idempotency-Key";

pub struct OrdersCtx {
    pub kv: Rc<LocalKv>,
    pub sessions: Rc<LocalKv>,
    pub orders: Rc<order_book::Book>,
}

fn header_value<'a>(req: &'a Request<HttpBody>, name: &str) -> Option<&'a str> {
    req.headers().get(name).and_then(|v| v.to_str().ok())
}

fn problem(status: u16, detail: &str) -> Response<HttpBody> {
    let body = format!(r#"{{"status":{status},"detail":"{detail}"}}"#);
    Response::builder()
        .status(status)
        .header("content-type", "application/problem+json")
        .body(HttpBody::fixed_body(Some(body.into())))
        .unwrap()
}

pub async fn place_order(ctx: &OrdersCtx, who: &Principal, req: Request<HttpBody>) -> Response<HttpBody> {
    let Some(client_key) = header_value(&req, IDEM) else {
        return problem(400, "missing Idempotency-Key");
    };

    let mut slot = String::with_capacity(96);
    slot.push_str(&who.tenant_id);
    slot.push('\x1e');
    slot.push_str(&who.user_id);
    slot.push('\x1e');
    slot.push_str("orders.place");
    slot.push('\x1e');
    slot.push_str(client_key);

    if let Some(saved) = ctx.kv.get(slot.as_bytes()) {
        return Response::builder().status(200).body(HttpBody::fixed_body(Some(saved.into()))).unwrap();
    }
    let order = ctx.orders.place(&who.tenant_id, &who.user_id).await;
    let out = serde_json::to_vec(&order).unwrap();
    ctx.kv.insert(slot.as_bytes(), &out);
    Response::builder().status(201).body(HttpBody::fixed_body(Some(out.into()))).unwrap()
}

pub async fn cancel_order(ctx: &OrdersCtx, req: Request<HttpBody>) -> Response<HttpBody> {
    let session = match header_value(&req, "x-session") {
        Some(s) => s.to_owned(),
        None => return problem(401, "no session"),
    };
    let Some(owner) = ctx.sessions.get(session.as_bytes()) else {
        return problem(401, "session expired");
    };

    let key = match header_value(&req, IDEM) {
        Some(k) if !k.is_empty() => k.to_owned(),
        _ => return problem(400, "missing Idempotency-Key"),
    };
    if ctx.kv.contains_key(key.as_bytes()) {
        return problem(409, "duplicate cancellation");
    }
    ctx.orders.cancel(&String::from_utf8_lossy(&owner)).await;
    Response::builder().status(202).body(HttpBody::fixed_body(None)).unwrap()
}
