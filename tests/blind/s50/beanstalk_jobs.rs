//! Charge jobs arrive over beanstalkd; the HTTP API enqueues them and also charges directly.
use beanstalkc::Beanstalkc;
use http::HeaderMap;
use idem_scope::scoped;
use std::collections::HashMap;
use std::sync::Mutex;

pub struct Charges {
    records: Mutex<HashMap<String, String>>,
}

#[derive(serde::Deserialize)]
struct ChargeJob {
    tenant_id: String,
    user_id: String,
    cents: u64,
}

impl Charges {
    pub fn charge_now(&self, h: &HeaderMap, tenant_id: &str, user_id: &str, cents: u64) -> Result<String, String> {
        let k = h.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?;
        let key = scoped(tenant_id, user_id, "charges.create", k).map_err(|e| e.to_string())?;
        let mut records = self.records.lock().unwrap();
        Ok(records.entry(key.storage_key().to_owned()).or_insert_with(|| format!("{{\"charged\":{cents}}}")).clone())
    }

    pub fn work(&self, conn: &mut Beanstalkc) -> Result<(), Box<dyn std::error::Error>> {
        conn.watch("charges")?;
        loop {
            let mut job = conn.reserve()?;
            let parsed: ChargeJob = serde_json::from_slice(job.body())?;
            let key = scoped(&parsed.tenant_id, &parsed.user_id, "charges.create", &job.id().to_string())?;
            {
                let mut records = self.records.lock().unwrap();
                records.entry(key.storage_key().to_owned()).or_insert_with(|| format!("{{\"charged\":{}}}", parsed.cents));
            }
            job.delete()?;
        }
    }
}
