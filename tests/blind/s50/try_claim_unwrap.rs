//! Webhook-delivery settings API for the admin console (sync handlers, ron-encoded records).
use http::HeaderMap;
use idem_scope::scoped;
use serde::Serialize;

pub trait RecordStore: Send + Sync {
    fn try_claim(&self, key: &str) -> bool;
    fn complete(&self, key: &str, response: Vec<u8>);
    fn release(&self, key: &str);
}

#[derive(Serialize)]
pub struct Endpoint {
    pub url: String,
    pub secret_ref: String,
}

pub struct Settings {
    records: Box<dyn RecordStore>,
}

fn header<'h>(h: &'h HeaderMap, n: &str) -> Option<&'h str> {
    h.get(n)?.to_str().ok()
}

impl Settings {
    pub fn add_endpoint(&self, h: &HeaderMap, tenant_id: &str, user_id: &str, url: &str) -> Result<Vec<u8>, String> {
        let k = header(h, "Idempotency-Key").ok_or("missing Idempotency-Key")?;
        let key = scoped(tenant_id, user_id, "endpoints.add", k).map_err(|e| e.to_string())?;
        if !self.records.try_claim(key.storage_key()) {
            return Err("409 in progress".into());
        }
        let ep = Endpoint { url: url.to_owned(), secret_ref: format!("vault:{tenant_id}") };
        let body = ron::to_string(&ep).unwrap().into_bytes();
        self.records.complete(key.storage_key(), body.clone());
        Ok(body)
    }

    pub fn rotate_secret(&self, h: &HeaderMap, tenant_id: &str, user_id: &str) -> Result<Vec<u8>, String> {
        let k = header(h, "Idempotency-Key").ok_or("missing Idempotency-Key")?;
        let key = scoped(tenant_id, user_id, "endpoints.rotate", k).map_err(|e| e.to_string())?;
        if !self.records.try_claim(key.storage_key()) {
            return Err("409 in progress".into());
        }
        let body = match ron::to_string(&format!("vault:{tenant_id}:v2")) {
            Ok(s) => s.into_bytes(),
            Err(e) => {
                self.records.release(key.storage_key());
                return Err(e.to_string());
            }
        };
        self.records.complete(key.storage_key(), body.clone());
        Ok(body)
    }
}
