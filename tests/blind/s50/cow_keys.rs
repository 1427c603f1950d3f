//! Replay lookups for the invoicing API (yew SSR front end posts here).
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub trait LockService: Send + Sync {
    fn acquire(&self, name: &str, ttl_ms: u64) -> Result<(), String>;
    fn release(&self, name: &str);
}

pub struct InvoiceApi {
    replays: Mutex<HashMap<String, Arc<str>>>,
    locks: Arc<dyn LockService>,
}

fn replay_key<'a>(tenant_id: &str, user_id: &str, k: &'a str) -> Cow<'a, str> {
    Cow::Owned(format!("{tenant_id}:{user_id}:{k}"))
}

fn lock_name(tenant_id: &str) -> Cow<'static, str> {
    Cow::Owned(format!("lock:{tenant_id}:rebalance"))
}

impl InvoiceApi {
    pub fn issue(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str) -> Result<Arc<str>, String> {
        let k = headers
            .get(http::HeaderName::from_static("idempotency-key"))
            .ok_or("missing key")?
            .to_str()
            .map_err(|e| e.to_string())?;
        let rk = replay_key(tenant_id, user_id, k);
        if let Some(hit) = self.replays.lock().unwrap().get(rk.as_ref()) {
            return Ok(Arc::clone(hit));
        }
        let invoice: Arc<str> = Arc::from(format!("{{\"invoice\":\"inv_{}\"}}", tenant_id));
        self.replays.lock().unwrap().insert(rk.into_owned(), invoice.clone());
        Ok(invoice)
    }

    pub fn rebalance(&self, tenant_id: &str) -> Result<(), String> {
        let name = lock_name(tenant_id);
        self.locks.acquire(&name, 30_000)?;
        let outcome = shuffle_buckets(tenant_id);
        self.locks.release(&name);
        outcome
    }
}

fn shuffle_buckets(_tenant_id: &str) -> Result<(), String> {
    Ok(())
}
