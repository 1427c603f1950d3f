//! services/payments/src/routes/capture.rs (pavex)
use std::sync::Arc;

use pavex::request::body::JsonBody;
use pavex::request::RequestHead;
use pavex::response::Response;
use serde::Deserialize;

use crate::auth::Caller;
use crate::store::KvStore;

const IDEMPOTENCY_KEY: &str = "Idempotency-Key";

#[derive(Deserialize)]
pub struct CaptureRequest {
    pub payment_id: String,
    pub amount_minor: i64,
    pub currency: String,
}

pub struct CaptureState {
    pub replay: Arc<dyn KvStore>,
    pub limits: Arc<dyn KvStore>,
}

pub async fn capture(
    head: &RequestHead,
    caller: &Caller,
    body: JsonBody<CaptureRequest>,
    state: &CaptureState,
) -> Response {
    let Some(raw) = head.headers.get(IDEMPOTENCY_KEY) else {
        return Response::bad_request().set_typed_body("missing Idempotency-Key");
    };
    let Ok(key) = raw.to_str() else {
        return Response::bad_request().set_typed_body("Idempotency-Key must be visible ASCII");
    };
    tracing::info!(idempotency_key = %key, payment = %body.0.payment_id, "capture requested");

    let tenant = caller.tenant_id.as_str();
    let user_id = caller.user_id.as_str();
    let route = "capture";

    // per-user rate limit bucket, nothing to do with idempotency
    let bucket = format!("rl:{user_id}:{route}");
    let _ = state.limits.incr(&bucket, 1).await;

    let storage_key = format!("{tenant}:{user_id}:{route}:{key}");
    if let Some(prev) = state.replay.get(&storage_key).await {
        return Response::ok().set_typed_body(prev);
    }
    let outcome = crate::psp::capture(&body.0).await;
    let rendered = serde_json::to_vec(&outcome).unwrap_or_default();
    state.replay.put(&storage_key, &rendered).await;
    Response::ok().set_typed_body(rendered)
}

pub async fn capture_status(head: &RequestHead, caller: &Caller, state: &CaptureState) -> Response {
    let key = head
        .headers
        .get(IDEMPOTENCY_KEY)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("<none>");
    let msg = format!("no capture recorded for key {key} in tenant {}", caller.tenant_id);
    Response::not_found().set_typed_body(msg)
}
