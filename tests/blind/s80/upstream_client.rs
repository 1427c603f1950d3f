//! Outbound client for the national single window (customs) API. Our own
//! retries reuse the caller's key so the single window de-duplicates them;
//! events we originate carry their event id as the key.

use std::time::Duration;

use http::header::{HeaderMap, HeaderName, HeaderValue};

static IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

pub struct SingleWindow {
    pub base: String,
    pub http: nsw_http::Client,
    pub attempts: u8,
}

#[derive(Debug, displaydoc::Display)]
pub enum NswError {
    /// single window rejected the call with status {0}
    Rejected(u16),
    /// single window unreachable after {0} attempts
    Unreachable(u8),
    /// header value is not valid: {0}
    BadHeader(String),
}

impl SingleWindow {
    /// Forwards a broker's declaration; `idempotency_key` is the broker's key.
    pub async fn forward_declaration(&self, idempotency_key: &str, body: Vec<u8>) -> Result<Vec<u8>, NswError> {
        let quoted = format!("\"{}\"", idempotency_key);
        let mut headers = HeaderMap::new();
        headers.insert(IDEMPOTENCY_KEY.clone(), HeaderValue::from_str(&quoted).map_err(|e| NswError::BadHeader(e.to_string()))?);
        self.send("/declarations", headers, body).await
    }

    /// Sends an event we originated (status change, gate-out confirmation).
    pub async fn send_event(&self, event_id: uuid::Uuid, kind: &str, body: Vec<u8>) -> Result<Vec<u8>, NswError> {
        let mut headers = HeaderMap::new();
        headers.insert(IDEMPOTENCY_KEY.clone(), HeaderValue::from_str(&event_id.to_string()).map_err(|e| NswError::BadHeader(e.to_string()))?);
        headers.insert("x-event-kind", HeaderValue::from_str(kind).map_err(|e| NswError::BadHeader(e.to_string()))?);
        self.send("/events", headers, body).await
    }

    async fn send(&self, path: &str, headers: HeaderMap, body: Vec<u8>) -> Result<Vec<u8>, NswError> {
        let url = format!("{}{}", self.base, path);
        let mut delay = Duration::from_millis(250);
        for attempt in 1..=self.attempts {
            match self.http.post(&url, headers.clone(), body.clone()).await {
                Ok(resp) if resp.status < 300 => return Ok(resp.body),
                Ok(resp) if resp.status < 500 && resp.status != 409 => return Err(NswError::Rejected(resp.status)),
                Ok(_) | Err(_) if attempt < self.attempts => {
                    tokio::time::sleep(delay).await;
                    delay *= 2;
                }
                Ok(resp) => return Err(NswError::Rejected(resp.status)),
                Err(_) => break,
            }
        }
        Err(NswError::Unreachable(self.attempts))
    }
}
