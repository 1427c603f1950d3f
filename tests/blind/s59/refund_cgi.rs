use std::env;

use cgi::{binary_response, empty_response, text_response, Request, Response};
use idem_scope::{scoped, ScopeError};
use sluice::kv::SyncBucket;

use crate::refunds::{approve_refund, request_refund, RefundRequest};

fn open_bucket() -> SyncBucket {
    SyncBucket::open(&env::var("REFUND_KV_URL").expect("REFUND_KV_URL must be set"))
}

fn handle(request: Request) -> Response {
    let Some(key) = request.headers().get("idempotency-key").and_then(|v| v.to_str().ok()) else {
        return text_response(400, "Idempotency-Key header is required");
    };
    let tenant_id = match request.headers().get("x-tenant-id").and_then(|v| v.to_str().ok()) {
        Some(t) => t.to_owned(),
        None => return text_response(400, "X-Tenant-Id is required"),
    };
    let bucket = open_bucket();

    let result = match request.uri().path() {
        "/cgi-bin/refund" => {
            let sk = match scoped(&tenant_id, "default", "refund", key) {
                Ok(sk) => sk,
                Err(e) => return scope_error(e),
            };
            if let Ok(Some(prev)) = bucket.get::<Vec<u8>>(sk.storage_key()) {
                return binary_response(200, "application/json", prev);
            }
            let body: RefundRequest = match serde_json::from_slice(request.body()) {
                Ok(b) => b,
                Err(e) => return text_response(422, e.to_string()),
            };
            request_refund(&tenant_id, &body).map(|r| (sk, r))
        }
        "/cgi-bin/refund/approve" => {
            let caller_id = match request.headers().get("x-operator-id").and_then(|v| v.to_str().ok()) {
                Some(o) => o.to_owned(),
                None => return text_response(403, "operator identity required"),
            };
            let sk = match scoped(&tenant_id, &caller_id, "refund.approve", key) {
                Ok(sk) => sk,
                Err(e) => return scope_error(e),
            };
            if let Ok(Some(prev)) = bucket.get::<Vec<u8>>(sk.storage_key()) {
                return binary_response(200, "application/json", prev);
            }
            approve_refund(&tenant_id, &caller_id).map(|r| (sk, r))
        }
        _ => return empty_response(404),
    };

    match result {
        Ok((sk, refund)) => {
            let out = serde_json::to_vec(&refund).unwrap_or_default();
            let _ = bucket.put(sk.storage_key(), &out);
            binary_response(201, "application/json", out)
        }
        Err(e) => text_response(502, e.to_string()),
    }
}

fn scope_error(e: ScopeError) -> Response {
    text_response(400, format!("invalid idempotency scope: {e}"))
}

cgi::cgi_main! { handle }
