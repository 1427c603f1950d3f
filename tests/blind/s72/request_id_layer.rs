//! Request ids for tracing (tower-http). Ids are logged and echoed, never
//! stored.

use http::{HeaderValue, Request};
use tower_http::request_id::{MakeRequestId, RequestId};
use uuid::Uuid;

#[derive(Clone, Default)]
pub struct MakeScru;

impl MakeRequestId for MakeScru {
    fn make_request_id<B>(&mut self, req: &Request<B>) -> Option<RequestId> {
        let inbound = req.headers().get("x-request-id").and_then(|v| v.to_str().ok());
        let id = match inbound {
            Some(v) => v.to_owned(),
            None => Uuid::new_v4().to_string(),
        };
        let idem = req.headers().get("idempotency-key").and_then(|v| v.to_str().ok()).unwrap_or("-");
        tracing::info!(request_id = %id, idempotency_key = idem, "inbound");
        let line = format!("{id}/{idem}");
        tracing::debug!(%line);
        HeaderValue::from_str(&id).ok().map(RequestId::new)
    }
}
