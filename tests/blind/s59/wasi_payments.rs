use idem_scope::{scoped, Problem, ScopeError};
use serde::Deserialize;
use waki::{handler, ErrorCode, Method, Request, Response};
use wasi::keyvalue::store;

use crate::identity::{verify_token, Identity};

#[derive(Clone, Copy)]
enum Op {
    Refund,
    Capture,
}

#[derive(Deserialize)]
struct PaymentBody {
    payment_id: String,
    amount_minor: i64,
    memo: Option<String>,
}

#[handler]
fn payments(req: Request) -> Result<Response, ErrorCode> {
    let op = match (req.method(), req.path()) {
        (Method::Post, "/v1/refunds") => Op::Refund,
        (Method::Post, "/v1/captures") => Op::Capture,
        _ => return Response::builder().status_code(404).build(),
    };
    let headers = req.headers();
    let Some(key) = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_owned) else {
        return problem(Problem::missing_key());
    };
    let ident: Identity = match headers.get("authorization").and_then(|v| verify_token(v.as_bytes()).ok()) {
        Some(i) => i,
        None => return Response::builder().status_code(401).build(),
    };
    let raw = req.body().map_err(|_| ErrorCode::HttpRequestBodySize(None))?;
    let body: PaymentBody = serde_json::from_slice(&raw).map_err(|_| ErrorCode::HttpProtocolError)?;
    let memo = body.memo.clone().unwrap_or_default();

    let slot = match op {
        Op::Refund => ident.tenant_id.clone() + "|" + &ident.user_id + "|" + "refund" + "|" + &key,
        Op::Capture => match scoped(&ident.tenant_id, &ident.user_id, "capture", &key) {
            Ok(k) => k.storage_key().to_owned(),
            Err(e) => return problem(scope_problem(e)),
        },
    };

    let bucket = store::open("payments").map_err(|_| ErrorCode::InternalError(None))?;
    if let Ok(Some(prev)) = bucket.get(&slot) {
        return Response::builder().status_code(200).header("Idempotent-Replayed", "true").body(prev).build();
    }
    let result = match op {
        Op::Refund => crate::payments::refund(&ident, &body.payment_id, body.amount_minor, &memo),
        Op::Capture => crate::payments::capture(&ident, &body.payment_id, body.amount_minor),
    };
    let out = serde_json::to_vec(&result).map_err(|_| ErrorCode::InternalError(None))?;
    bucket.set(&slot, &out).map_err(|_| ErrorCode::InternalError(None))?;
    Response::builder().status_code(201).body(out).build()
}

fn scope_problem(e: ScopeError) -> Problem {
    Problem::invalid_key(&e.to_string())
}

fn problem(p: Problem) -> Result<Response, ErrorCode> {
    Response::builder()
        .status_code(p.status())
        .header("content-type", idem_scope::PROBLEM_CONTENT_TYPE)
        .body(p.to_json())
        .build()
}
