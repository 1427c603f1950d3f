use std::sync::mpsc;

use ehttp::{Headers, Request};
use serde::{Deserialize, Serialize};

use crate::psp::{PspConfig, PspError};

#[derive(Serialize)]
struct CaptureBody<'a> {
    payment_id: &'a str,
    amount_minor: i64,
}

#[derive(Deserialize)]
pub struct CaptureEvent {
    pub event_id: String,
    pub tenant_id: String,
    pub payment_id: String,
    pub amount_minor: i64,
}

pub struct PspClient {
    cfg: PspConfig,
}

impl PspClient {
    fn post(&self, path: &str, headers: &[(&str, &str)], body: Vec<u8>) -> Result<u16, PspError> {
        let mut req = Request::post(format!("{}{}", self.cfg.base_url, path), body);
        req.headers = Headers::new(headers);
        let (tx, rx) = mpsc::channel();
        ehttp::fetch(req, move |result| {
            let _ = tx.send(result.map(|r| r.status));
        });
        rx.recv().map_err(|_| PspError::Dropped)?.map_err(PspError::Transport)
    }

    /// Capture requested by our API caller; the caller's key is reused upstream.
    pub fn capture_for_client(&self, tenant_id: &str, client_key: &str, payment_id: &str, amount_minor: i64) -> Result<u16, PspError> {
        let upstream_key = format!("{}:{}", tenant_id, client_key);
        let body = serde_json::to_vec(&CaptureBody { payment_id, amount_minor })?;
        self.post(
            "/captures",
            &[("Authorization", &self.cfg.bearer()), ("Idempotency-Key", &upstream_key)],
            body,
        )
    }

    /// Capture triggered by our own settlement event.
    pub fn capture_for_event(&self, evt: &CaptureEvent) -> Result<u16, PspError> {
        let body = serde_json::to_vec(&CaptureBody { payment_id: &evt.payment_id, amount_minor: evt.amount_minor })?;
        self.post(
            "/captures",
            &[("Authorization", &self.cfg.bearer()), ("Idempotency-Key", &evt.event_id)],
            body,
        )
    }
}
