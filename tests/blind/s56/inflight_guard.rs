use std::sync::Arc;
use std::time::Instant;

use dashmap::DashMap;
use http::{HeaderMap, HeaderValue, Response, StatusCode};

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS inflight_dedup (
    org_id      TEXT        NOT NULL,
    idem_key    TEXT        NOT NULL,
    started_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    response    BYTEA,
    PRIMARY KEY (org_id, idem_key)
)";

pub enum Slot {
    Running(Instant),
    Done(Vec<u8>),
}

#[derive(Clone, Default)]
pub struct Inflight {
    slots: Arc<DashMap<(String, String), Slot>>,
}

impl Inflight {
    pub fn run<F>(&self, caller: &crate::auth::Caller, headers: &HeaderMap, work: F) -> Response<Vec<u8>>
    where
        F: FnOnce() -> Result<Vec<u8>, String>,
    {
        let Some(key) = headers.get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
            return plain(StatusCode::BAD_REQUEST, "Idempotency-Key required");
        };
        let slot = (caller.org_id.clone(), key.to_owned());
        if let Some(existing) = self.slots.get(&slot) {
            return match &*existing {
                Slot::Running(_) => plain(StatusCode::CONFLICT, "request in progress"),
                Slot::Done(body) => with_etag(StatusCode::OK, body.clone()),
            };
        }
        self.slots.insert(slot.clone(), Slot::Running(Instant::now()));
        match work() {
            Ok(body) => {
                self.slots.insert(slot, Slot::Done(body.clone()));
                with_etag(StatusCode::CREATED, body)
            }
            Err(e) => {
                self.slots.remove(&slot);
                plain(StatusCode::UNPROCESSABLE_ENTITY, &e)
            }
        }
    }
}

fn with_etag(status: StatusCode, body: Vec<u8>) -> Response<Vec<u8>> {
    let etag = format!("\"{}\"", blake2b_simd::blake2b(&body).to_hex());
    let mut resp = Response::new(body);
    *resp.status_mut() = status;
    resp.headers_mut().insert("etag", HeaderValue::from_str(&etag).expect("hex is a valid header"));
    resp
}

fn plain(status: StatusCode, msg: &str) -> Response<Vec<u8>> {
    let mut resp = Response::new(msg.as_bytes().to_vec());
    *resp.status_mut() = status;
    resp
}
