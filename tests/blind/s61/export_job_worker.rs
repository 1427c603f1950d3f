use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, scoped_server, ScopeError, ScopedKey};
use larder::pantry::Pantry;
use larder::queue::{Job, JobBatch};

pub struct Exports {
    done: Arc<Pantry>,
}

pub struct ExportRequest {
    pub tenant_id: String,
    pub user_id: String,
    pub format: String,
}

impl Exports {
    /// POST /v1/exports; `Idempotency-Key` is required by the gateway.
    pub async fn request_export(&self, headers: &http::HeaderMap, req: ExportRequest) -> anyhow::Result<String> {
        let k = headers
            .get("idempotency-key")
            .map(|v| v.to_str())
            .transpose()?
            .ok_or_else(|| anyhow::anyhow!("Idempotency-Key required"))?;
        let key = scoped(&req.tenant_id, &req.user_id, "exports.generate", k)?;
        self.generate_once(&key, &req.format).await
    }

    /// Nightly scheduled exports, one job per subscribed user.
    pub async fn run_batch(&self, batch: JobBatch) -> anyhow::Result<()> {
        let keyed: Vec<(ScopedKey, &Job)> = batch
            .jobs()
            .iter()
            .map(|job| scoped(&job.tenant_id, &job.user_id, "exports.generate", job.id.as_str()).map(|k| (k, job)))
            .collect::<Result<_, ScopeError>>()?;
        for (key, job) in keyed {
            self.generate_once(&key, &job.format).await?;
            batch.ack(job).await?;
        }
        Ok(())
    }

    /// Operator console re-runs a failed export by its job id.
    pub async fn rerun(&self, tenant_id: &str, user_id: &str, job_id: &str) -> anyhow::Result<String> {
        let key = scoped_server(tenant_id, user_id, "exports.generate", job_id)?;
        self.generate_once(&key, "csv").await
    }

    async fn generate_once(&self, key: &ScopedKey, format: &str) -> anyhow::Result<String> {
        if let Some(url) = self.done.get(key.storage_key()).await? {
            return Ok(String::from_utf8(url)?);
        }
        let url = format!("https://exports.example.com/{}.{}", key.shard(64), format);
        self.done.put(key.storage_key(), url.as_bytes(), Duration::from_secs(7 * 86_400)).await?;
        Ok(url)
    }
}
