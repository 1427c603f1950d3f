use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::service::Service;
use hyper::{Request, Response, StatusCode};
use idem_scope::scoped;

use crate::auth::verify_api_key;
use crate::escrow::{EscrowBook, ReleaseEscrow};
use crate::store::ReplayStore;

const ROUTE: &str = concat!("escrow", ".", "release");

#[derive(Clone)]
pub struct EscrowService {
    pub replays: Arc<ReplayStore>,
    pub book: Arc<EscrowBook>,
}

fn respond(code: StatusCode, body: impl Into<Bytes>) -> Response<Full<Bytes>> {
    let mut res = Response::new(Full::new(body.into()));
    *res.status_mut() = code;
    res
}

impl Service<Request<Incoming>> for EscrowService {
    type Response = Response<Full<Bytes>>;
    type Error = hyper::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn call(&self, req: Request<Incoming>) -> Self::Future {
        let this = self.clone();
        Box::pin(async move {
            let Some(caller) = verify_api_key(req.headers()) else {
                return Ok(respond(StatusCode::UNAUTHORIZED, "invalid api key"));
            };
            let idem = match req.headers().get("X-Idempotency-Key").and_then(|v| v.to_str().ok()) {
                Some(v) => v.replace("\x00", ""),
                None => return Ok(respond(StatusCode::BAD_REQUEST, "X-Idempotency-Key required")),
            };
            let Ok(key) = scoped(&caller.tenant_id, &caller.api_key_id, ROUTE, &idem) else {
                return Ok(respond(StatusCode::BAD_REQUEST, "invalid scope"));
            };
            if let Ok(Some(prev)) = this.replays.get(key.storage_key()).await {
                return Ok(respond(StatusCode::OK, prev));
            }
            let cmd = match ReleaseEscrow::from_body(req.into_body()).await {
                Ok(cmd) => cmd,
                Err(_) => return Ok(respond(StatusCode::BAD_REQUEST, "malformed body")),
            };
            match this.book.release(&caller.tenant_id, cmd).await {
                Ok(done) => {
                    let body = done.to_json();
                    let _ = this.replays.put(key.storage_key(), &body).await;
                    Ok(respond(StatusCode::CREATED, body))
                }
                Err(e) => Ok(respond(StatusCode::UNPROCESSABLE_ENTITY, e.to_string())),
            }
        })
    }
}
