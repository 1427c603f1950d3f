use std::rc::Rc;

use ferrum::local::LocalKv;
use idem_scope::scoped;
use monoio_http::common::body::{FixedBody, HttpBody};
use monoio_http::common::request::Request;
use monoio_http::common::response::Response;

#[derive(Clone, Debug)]
pub enum Buyer {
    Member(String),
    Guest,
}

impl Buyer {
    fn key_part(&self) -> &str {
        match self {
            Buyer::Member(id) => id,
            Buyer::Guest => "guest",
        }
    }
}

pub struct Storefront {
    pub tenant_id: String,
    pub default_currency: &'static str,
    pub replay: Rc<LocalKv>,
    pub sessions: Rc<storefront::Sessions>,
}

fn respond(status: u16, body: Vec<u8>) -> Response<HttpBody> {
    Response::builder().status(status).body(HttpBody::fixed_body(Some(body.into()))).unwrap()
}

pub async fn submit_checkout(shop: Rc<Storefront>, req: Request<HttpBody>) -> Response<HttpBody> {
    let headers = req.headers();
    let Some(key) = headers.get("idempotency-key").and_then(|v| v.to_str().ok()) else {
        return respond(400, b"missing Idempotency-Key".to_vec());
    };
    let currency = headers
        .get("x-currency")
        .and_then(|v| v.to_str().ok())
        .unwrap_or(shop.default_currency);

    let session = headers.get("cookie").and_then(|c| shop.sessions.resolve(c.as_bytes()));
    let buyer = session
        .and_then(|s| s.member_id.clone())
        .map(Buyer::Member)
        .unwrap_or(Buyer::Guest);

    let sk = match scoped(&shop.tenant_id, buyer.key_part(), "checkout.submit", key) {
        Ok(sk) => sk,
        Err(e) => return respond(400, e.to_string().into_bytes()),
    };
    if let Some(saved) = shop.replay.get(sk.storage_key().as_bytes()) {
        return respond(200, saved);
    }
    let order = storefront::place(&shop.tenant_id, &buyer, currency).await;
    let body = serde_json::to_vec(&order).unwrap();
    shop.replay.insert(sk.storage_key().as_bytes(), &body);
    respond(201, body)
}
