//! Webhook-subscription API backed by a tenant-partitioned KV (influxdb2 buckets per tenant).
use std::collections::HashMap;
use std::sync::RwLock;

pub trait TenantKv: Send + Sync {
    fn get(&self, tenant: &str, key: &str) -> Option<String>;
    fn put(&self, tenant: &str, key: &str, value: String);
}

#[derive(Default)]
pub struct MemKv(RwLock<HashMap<(String, String), String>>);

impl TenantKv for MemKv {
    fn get(&self, tenant: &str, key: &str) -> Option<String> {
        self.0.read().unwrap().get(&(tenant.to_owned(), key.to_owned())).cloned()
    }
    fn put(&self, tenant: &str, key: &str, value: String) {
        self.0.write().unwrap().insert((tenant.to_owned(), key.to_owned()), value);
    }
}

pub struct Request<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub headers: &'a http::HeaderMap,
    pub body: &'a [u8],
}

pub struct SubscriptionsApi {
    kv: Box<dyn TenantKv>,
    sessions: Box<dyn TenantKv>,
}

impl SubscriptionsApi {
    pub fn create(&self, req: Request<'_>) -> Result<String, &'static str> {
        let k = req.headers.get("Idempotency-Key").ok_or("missing key")?.to_str().map_err(|_| "bad key")?;
        if let Some(prev) = self.kv.get(req.tenant_id, k) {
            return Ok(prev);
        }
        let created = format!("{{\"subscription\":\"sub_{}\"}}", req.body.len());
        Ok(created)
    }

    pub fn whoami(&self, req: Request<'_>) -> Option<String> {
        let token = req.headers.get("authorization")?.to_str().ok()?;
        let token = token.strip_prefix("Bearer ")?;
        self.sessions.get(req.tenant_id, token)
    }
}
