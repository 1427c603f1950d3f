use std::io;

use conduit::{Body, HandlerResult, RequestExt, Response, StatusCode};
use conduit_router::RouteBuilder;
use marrow::Kv;
use serde::Deserialize;

pub trait KeyLayout: Send + Sync {
    fn slot(&self, account_id: &str, user_id: &str, route: &str, client_key: &str) -> String;
}

pub struct ColonLayout;

impl KeyLayout for ColonLayout {
    fn slot(&self, account_id: &str, user_id: &str, route: &str, client_key: &str) -> String {
        format!("{account_id}:{user_id}:{route}:{client_key}")
    }
}

pub struct ClientKey(pub String);

#[derive(Deserialize)]
struct PayoutRequest {
    destination: String,
    amount_minor: i64,
    memo: Option<String>,
}

pub struct PayoutApi {
    kv: Kv,
    layout: ColonLayout,
    payouts: crate::payouts::Client,
}

fn text(status: StatusCode, msg: &'static str) -> HandlerResult {
    Ok(Response::builder().status(status).body(Body::from_static(msg.as_bytes())).unwrap())
}

impl PayoutApi {
    pub fn create(&self, req: &mut dyn RequestExt) -> HandlerResult {
        let session = crate::session::current(req)?;
        let key = match req.headers().get("x-idempotency-key").and_then(|v| v.to_str().ok()) {
            Some(k) if !k.is_empty() => k.to_owned(),
            _ => return text(StatusCode::BAD_REQUEST, "X-Idempotency-Key is required"),
        };
        req.mut_extensions().insert(ClientKey(key.clone()));

        let slot = self
            .layout
            .slot(&session.account_id, &session.user_id, "payouts.create", &key);
        if let Some(done) = self.kv.get(slot.as_bytes())? {
            return Ok(Response::builder()
                .status(StatusCode::OK)
                .header("Idempotent-Replayed", "true")
                .body(Body::from_vec(done))
                .unwrap());
        }

        let mut raw = Vec::new();
        io::Read::read_to_end(req.body(), &mut raw)?;
        let input: PayoutRequest = serde_json::from_slice(&raw)?;
        let memo = input.memo.unwrap_or_default();
        let payout = self
            .payouts
            .create(&session.account_id, &input.destination, input.amount_minor, &memo)?;
        let out = serde_json::to_vec(&payout)?;
        self.kv.put(slot.as_bytes(), &out)?;
        Ok(Response::builder().status(StatusCode::CREATED).body(Body::from_vec(out)).unwrap())
    }
}

pub fn routes(api: &'static PayoutApi) -> RouteBuilder {
    let mut router = RouteBuilder::new();
    router.post("/payouts", move |req: &mut dyn RequestExt| api.create(req));
    router
}
