//! Payment capture and void handlers (sycamore SSR app, server functions).
use http::HeaderMap;
use idem_scope::{scoped, IdempotencyKey, Problem, ScopedKey};
use std::collections::HashMap;
use std::sync::RwLock;

pub struct Claims {
    pub org_id: String,
    pub sub: String,
}

pub struct Payments {
    done: RwLock<HashMap<String, String>>,
}

fn client_key(headers: &HeaderMap) -> Result<IdempotencyKey, Problem> {
    let raw = headers.get("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    IdempotencyKey::parse_lenient(raw.as_bytes()).map_err(|e| Problem::invalid_key(&e.to_string()))
}

impl Payments {
    pub fn capture(&self, claims: &Claims, headers: &HeaderMap) -> Result<String, Problem> {
        let k = client_key(headers)?;
        let key: ScopedKey = scoped(&claims.org_id, &claims.sub, "payments.capture", k.as_str())
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.run(key, || format!("{{\"captured\":true,\"by\":\"{}\"}}", claims.sub))
    }

    pub fn void(&self, claims: &Claims, headers: &HeaderMap) -> Result<String, Problem> {
        let k = client_key(headers)?;
        let key = scoped(&claims.org_id, "default", "payments.void", k.as_str())
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.run(key, || "{\"voided\":true}".to_string())
    }

    fn run(&self, key: ScopedKey, f: impl FnOnce() -> String) -> Result<String, Problem> {
        if let Some(prev) = self.done.read().unwrap().get(key.storage_key()) {
            return Ok(prev.clone());
        }
        let out = f();
        self.done.write().unwrap().insert(key.storage_key().to_owned(), out.clone());
        Ok(out)
    }
}
