//! Outbound webhook redrive: failed deliveries are re-sent by a worker thread.
//! The public "send test webhook" API uses the same idempotency map.
use http::HeaderMap;
use idem_scope::scoped;
use std::collections::HashMap;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};

pub struct Delivery {
    pub delivery_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub url: String,
    pub body: Vec<u8>,
}

#[derive(Clone, Default)]
pub struct Sent(Arc<Mutex<HashMap<String, u16>>>);

impl Sent {
    fn record(&self, key: &str, status: u16) -> bool {
        self.0.lock().unwrap().insert(key.to_owned(), status).is_none()
    }
}

pub fn send_test(sent: &Sent, h: &HeaderMap, tenant_id: &str, user_id: &str, url: &str) -> Result<u16, String> {
    let k = h.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?;
    let key = scoped(tenant_id, user_id, "webhooks.test", k).map_err(|e| e.to_string())?;
    let status = ureq::post(url).send_string("{\"test\":true}").map(|r| r.status()).unwrap_or(599);
    sent.record(key.storage_key(), status);
    Ok(status)
}

pub fn redrive(sent: Sent, rx: Receiver<Delivery>) {
    std::thread::spawn(move || {
        for d in rx {
            let Ok(key) = scoped(&d.tenant_id, &d.user_id, "webhooks.deliver", &d.delivery_id) else {
                continue;
            };
            let status = ureq::post(&d.url).send_bytes(&d.body).map(|r| r.status()).unwrap_or(599);
            log::info!("redelivered {} -> {}", d.delivery_id, status);
            sent.record(key.storage_key(), status);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_is_first_write_wins() {
        let sent = Sent::default();
        let mut h = HeaderMap::new();
        h.insert("Idempotency-Key", "k1".parse().unwrap());
        let k = h.get("Idempotency-Key").unwrap().to_str().unwrap();
        assert!(sent.record(k, 200));
        assert!(!sent.record(k, 500));
    }
}
