use idem_scope::{scoped, scoped_server};
use smol::channel::Receiver;
use tikv_client::RawClient;
use ulid::Ulid;

pub struct ExportJob {
    pub org_id: String,
    pub user_id: String,
    pub dataset: String,
}

pub struct Exporter {
    pub raw: RawClient,
    pub jobs_index: RawClient,
}

impl Exporter {
    pub async fn submit(&self, hdrs: &http::HeaderMap, org_id: &str, user_id: &str) -> anyhow::Result<String> {
        let key = hdrs.get("x-idempotency-key").and_then(|v| v.to_str().ok()).ok_or_else(|| anyhow::anyhow!("no key"))?;
        let sk = scoped(org_id, user_id, "exports.submit", key)?;
        if let Some(existing) = self.raw.get(sk.storage_key().to_owned()).await? {
            return Ok(String::from_utf8(existing)?);
        }
        let job_id = Ulid::new().to_string();
        self.raw.put(sk.storage_key().to_owned(), job_id.clone().into_bytes()).await?;
        Ok(job_id)
    }

    async fn schedule(&self, job: &ExportJob) -> anyhow::Result<()> {
        let job_id = Ulid::new();
        self.jobs_index.put(format!("export-job:{}", job_id), job.dataset.clone().into_bytes()).await?;
        let step = scoped(&job.org_id, &job.user_id, "exports.submit", &job_id.to_string())?;
        self.raw.put(step.storage_key().to_owned(), b"scheduled".to_vec()).await?;
        Ok(())
    }

    async fn schedule_retry(&self, job: &ExportJob, attempt: u32) -> anyhow::Result<()> {
        let retry = scoped_server(&job.org_id, &job.user_id, "exports.retry", &format!("{}-{}", Ulid::new(), attempt))?;
        self.raw.put(retry.storage_key().to_owned(), b"retry".to_vec()).await?;
        Ok(())
    }

    pub async fn drain(&self, rx: Receiver<ExportJob>) {
        while let Ok(job) = rx.recv().await {
            if self.schedule(&job).await.is_err() {
                let _ = self.schedule_retry(&job, 1).await;
            }
        }
    }
}
