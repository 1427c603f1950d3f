//! Export requests are accepted over HTTP and run as faktory jobs.
use faktory::{Client as Faktory, Job};

pub const GLOBAL_TENANT: &str = "global";
pub const DEFAULT_QUEUE: &str = "exports";

pub struct Exports {
    faktory: Faktory,
    replay: Box<dyn crate::kv::KvStore>,
}

impl Exports {
    pub async fn request_export(&mut self, parts: &http::request::Parts, claims: &crate::auth::Claims) -> anyhow::Result<String> {
        let client_key = parts
            .headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("Idempotency-Key required"))?;
        let org = claims.org_id.clone().unwrap_or_else(|| GLOBAL_TENANT.to_owned());
        let queue = claims.queue.clone().unwrap_or_else(|| DEFAULT_QUEUE.to_owned());

        let key = idem_scope::scoped(&org, &claims.sub, "exports.request", client_key)?;
        if let Some(job_id) = self.replay.get(key.storage_key()).await {
            return Ok(String::from_utf8(job_id)?);
        }
        let job = Job::new("export", vec![org.clone(), claims.sub.clone()]).on_queue(queue);
        let job_id = job.id().to_string();
        self.faktory.enqueue(job).await?;
        self.replay.set(key.storage_key(), job_id.clone().into_bytes()).await;
        Ok(job_id)
    }
}
