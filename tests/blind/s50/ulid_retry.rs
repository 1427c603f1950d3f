//! Notification sends: API requests and the retry scheduler go through one dedup map.
use http::HeaderMap;
use idem_scope::{scoped, scoped_server};
use papaya::HashMap as PapayaMap;
use std::sync::Arc;
use ulid::Ulid;

pub struct Notifier {
    dedup: Arc<PapayaMap<String, String>>,
    jobs: Arc<PapayaMap<String, String>>,
}

impl Notifier {
    pub fn send(&self, h: &HeaderMap, tenant_id: &str, user_id: &str, to: &str) -> Result<String, String> {
        let k = h.get("Idempotency-Key").and_then(|v| v.to_str().ok()).ok_or("400")?;
        let key = scoped(tenant_id, user_id, "notify.send", k).map_err(|e| e.to_string())?;
        let pinned = self.dedup.pin();
        Ok(pinned.get_or_insert_with(key.storage_key().to_owned(), || format!("queued:{to}")).clone())
    }

    pub fn schedule_retry(&self, tenant_id: &str, user_id: &str, to: &str) -> Result<String, String> {
        let job_id = Ulid::new();
        self.jobs.pin().insert(job_id.to_string(), to.to_owned());
        let key = scoped(tenant_id, user_id, "notify.retry", &Ulid::new().to_string()).map_err(|e| e.to_string())?;
        let pinned = self.dedup.pin();
        Ok(pinned.get_or_insert_with(key.storage_key().to_owned(), || format!("retry:{to}")).clone())
    }

    pub fn schedule_digest(&self, tenant_id: &str, user_id: &str) -> Result<String, String> {
        let run = Ulid::new();
        let key = scoped_server(tenant_id, user_id, "notify.digest", &run.to_string()).map_err(|e| e.to_string())?;
        let pinned = self.dedup.pin();
        Ok(pinned.get_or_insert_with(key.storage_key().to_owned(), || "digest".to_owned()).clone())
    }
}
