use idem_scope::{scoped, Problem};
use waki::{handler, ErrorCode, Method, Request, Response};
use wasi::keyvalue::store;

use crate::identity::{read_identity, Identity};
use crate::seats::{book_seats, release_booking};

pub enum Principal {
    Member(String),
    Guest,
}

impl Principal {
    fn id(&self) -> &str {
        match self {
            Principal::Member(id) => id,
            Principal::Guest => "guest",
        }
    }
}

#[handler]
fn tickets(req: Request) -> Result<Response, ErrorCode> {
    let Some(key) = req.headers().get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_owned) else {
        return reply(Problem::missing_key().status(), Problem::missing_key().to_json().into_bytes());
    };
    let ident: Identity = read_identity(req.headers()).map_err(|_| ErrorCode::HttpRequestDenied)?;
    match (req.method(), req.path()) {
        (Method::Post, "/bookings") => book(&req, ident, &key),
        (Method::Post, "/bookings/cancel") => cancel(&req, ident, &key),
        _ => reply(404, Vec::new()),
    }
}

fn book(req: &Request, ident: Identity, key: &str) -> Result<Response, ErrorCode> {
    let principal = match ident.member_id {
        Some(id) => Principal::Member(id),
        None => Principal::Guest,
    };
    let sk = scoped(&ident.account_id, principal.id(), "bookings.create", key).map_err(|_| ErrorCode::HttpRequestDenied)?;
    let bucket = store::open("bookings").map_err(|_| ErrorCode::InternalError(None))?;
    if let Ok(Some(prev)) = bucket.get(sk.storage_key()) {
        return reply(200, prev);
    }
    let body = req.body().map_err(|_| ErrorCode::HttpRequestBodySize(None))?;
    let booking = book_seats(&ident.account_id, principal.id(), &body).map_err(|_| ErrorCode::InternalError(None))?;
    let out = serde_json::to_vec(&booking).map_err(|_| ErrorCode::InternalError(None))?;
    bucket.set(sk.storage_key(), &out).map_err(|_| ErrorCode::InternalError(None))?;
    reply(201, out)
}

fn cancel(req: &Request, ident: Identity, key: &str) -> Result<Response, ErrorCode> {
    let user_id = match ident.member_id {
        Some(id) => id,
        None => return reply(403, b"guests cannot cancel online".to_vec()),
    };
    let sk = scoped(&ident.account_id, &user_id, "bookings.cancel", key).map_err(|_| ErrorCode::HttpRequestDenied)?;
    let bucket = store::open("bookings").map_err(|_| ErrorCode::InternalError(None))?;
    if let Ok(Some(prev)) = bucket.get(sk.storage_key()) {
        return reply(200, prev);
    }
    let body = req.body().map_err(|_| ErrorCode::HttpRequestBodySize(None))?;
    let out = release_booking(&ident.account_id, &user_id, &body).map_err(|_| ErrorCode::InternalError(None))?;
    bucket.set(sk.storage_key(), &out).map_err(|_| ErrorCode::InternalError(None))?;
    reply(200, out)
}

fn reply(status: u16, body: Vec<u8>) -> Result<Response, ErrorCode> {
    Response::builder().status_code(status).body(body).build()
}
