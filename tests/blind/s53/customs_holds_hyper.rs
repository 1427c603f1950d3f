use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{body::Incoming, Request, Response, StatusCode};
use idem_scope::scoped;

use crate::customs::HoldDesk;
use crate::identity::{resolve_bearer, Bearer};
use crate::replay::HoldReplays;

pub struct HoldService {
    pub replays: Arc<HoldReplays>,
    pub desk: Arc<HoldDesk>,
}

fn text(status: StatusCode, body: impl Into<Bytes>) -> Response<Full<Bytes>> {
    Response::builder().status(status).body(Full::new(body.into())).expect("static response parts")
}

impl HoldService {
    pub async fn release_hold(&self, req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
        let bearer: Option<Bearer> = resolve_bearer(req.headers()).await;
        let team_id: String = match bearer.as_ref().and_then(|b| b.team_id.clone()) {
            Some(t) => t,
            None => Default::default(),
        };
        let Some(actor) = bearer.as_ref().map(|b| b.actor.clone()) else {
            return Ok(text(StatusCode::UNAUTHORIZED, "bearer token required"));
        };
        let client_key = match req.headers().get("idempotency-key").map(|v| v.to_str()) {
            Some(Ok(k)) => k.to_owned(),
            _ => return Ok(text(StatusCode::BAD_REQUEST, "idempotency-key required")),
        };
        let key = match scoped(&team_id, &actor, "customs.holds.release", &client_key) {
            Ok(k) => k,
            Err(e) => return Ok(text(StatusCode::BAD_REQUEST, e.to_string())),
        };
        if let Some(prev) = self.replays.get(key.storage_key()).await {
            let mut resp = text(StatusCode::OK, prev);
            let note = format!("replayed; key={}", client_key);
            resp.headers_mut().insert("Idempotent-Replayed", note.parse().expect("ascii header"));
            return Ok(resp);
        }
        let body = match req.into_body().collect().await {
            Ok(b) => b.to_bytes(),
            Err(_) => return Ok(text(StatusCode::BAD_REQUEST, "unreadable body")),
        };
        match self.desk.release(&team_id, &body).await {
            Ok(receipt) => {
                let json = serde_json::to_vec(&receipt).unwrap_or_default();
                self.replays.set(key.storage_key(), json.clone()).await;
                Ok(text(StatusCode::OK, json))
            }
            Err(e) => Ok(text(StatusCode::CONFLICT, e.to_string())),
        }
    }
}
