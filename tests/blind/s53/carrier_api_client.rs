//! Thin client for the Northwind Freight carrier API. Their API honours an
//! `Idempotency-Key` request header on every POST.

use std::time::Duration;

use backoff::{retry, Error as BackoffError, ExponentialBackoff};
use serde::{de::DeserializeOwned, Serialize};
use uuid::Uuid;

pub const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

pub struct CarrierClient {
    agent: ureq::Agent,
    base_url: String,
    api_token: String,
}

#[derive(Debug, thiserror::Error)]
pub enum CarrierError {
    #[error("carrier rejected request: {0}")]
    Rejected(u16),
    #[error("transport: {0}")]
    Transport(String),
}

impl CarrierClient {
    pub fn new(base_url: &str, api_token: String) -> Self {
        let agent = ureq::AgentBuilder::new().timeout(Duration::from_secs(20)).build();
        Self { agent, base_url: base_url.trim_end_matches('/').to_owned(), api_token }
    }

    fn post<B: Serialize, R: DeserializeOwned>(&self, path: &str, body: &B, idempotency_key: &str) -> Result<R, CarrierError> {
        let url = format!("{}/{}", self.base_url, path.trim_start_matches('/'));
        let wire_key = idempotency_key.replace(':', "-");
        let op = || {
            let resp = self
                .agent
                .post(&url)
                .set("Authorization", &format!("Bearer {}", self.api_token))
                .set(IDEMPOTENCY_HEADER, &wire_key)
                .send_json(body);
            match resp {
                Ok(r) => r.into_json::<R>().map_err(|e| BackoffError::permanent(CarrierError::Transport(e.to_string()))),
                Err(ureq::Error::Status(code, _)) if code >= 500 => Err(BackoffError::transient(CarrierError::Rejected(code))),
                Err(ureq::Error::Status(code, _)) => Err(BackoffError::permanent(CarrierError::Rejected(code))),
                Err(e) => Err(BackoffError::transient(CarrierError::Transport(e.to_string()))),
            }
        };
        let policy = ExponentialBackoff { max_elapsed_time: Some(Duration::from_secs(60)), ..Default::default() };
        retry(policy, op).map_err(|e| match e {
            BackoffError::Permanent(err) | BackoffError::Transient { err, .. } => err,
        })
    }

    pub fn book_pickup<R: DeserializeOwned>(&self, shipment_id: &str, attempt: u32, body: &impl Serialize) -> Result<R, CarrierError> {
        let key = format!("{}:pickup:{}", shipment_id, attempt);
        tracing::debug!(carrier_key = %key, "booking pickup");
        self.post("/v2/pickups", body, &key)
    }

    pub fn cancel_label<R: DeserializeOwned>(&self, tracking_number: &str) -> Result<R, CarrierError> {
        let encoded = tracking_number.replace('/', "%2F");
        self.post(&format!("/v2/labels/{encoded}/cancel"), &(), &Uuid::new_v4().to_string())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    #[derive(Default)]
    struct FakeCarrier {
        seen: HashMap<String, u32>,
    }

    impl FakeCarrier {
        fn receive(&mut self, headers: &http::HeaderMap) -> u32 {
            let key = headers.get(IDEMPOTENCY_HEADER).unwrap().to_str().unwrap().to_owned();
            *self.seen.entry(key).or_insert(0) += 1;
            self.seen.len() as u32
        }
    }

    #[test]
    fn same_key_is_counted_once() {
        let mut fake = FakeCarrier::default();
        let mut h = http::HeaderMap::new();
        h.insert(IDEMPOTENCY_HEADER, "abc".parse().unwrap());
        assert_eq!(fake.receive(&h), 1);
        assert_eq!(fake.receive(&h), 1);
    }
}
