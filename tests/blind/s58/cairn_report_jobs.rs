use std::sync::Arc;

use cairn::jobs::{Job, JobContext, Worker};
use cairn::kv::Bucket;
use idem_scope::{scoped, scoped_server};

pub struct ReportWorker {
    replies: Arc<Bucket>,
    blobs: Arc<Bucket>,
}

impl ReportWorker {
    /// API entry: a user asks for a report and may retry with the same Idempotency-Key.
    pub async fn request_report(&self, headers: &http::HeaderMap, tenant_id: &str, user_id: &str) -> anyhow::Result<Vec<u8>> {
        let key = headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("missing Idempotency-Key"))?;
        let sk = scoped(tenant_id, user_id, "reports.generate", key)?;
        if let Some(prev) = self.replies.get(sk.storage_key()).await? {
            return Ok(prev);
        }
        let ack = br#"{"status":"queued"}"#.to_vec();
        self.replies.put(sk.storage_key(), &ack).await?;
        Ok(ack)
    }

    pub async fn retry_failed(&self, job: &Job) -> anyhow::Result<()> {
        let tenant_id = job.arg("tenant_id")?;
        let actor = job.arg("actor")?;
        let sk = scoped_server(&tenant_id, &actor, "reports.retry", &job.id())?;
        self.replies.put(sk.storage_key(), b"retried").await?;
        Ok(())
    }
}

impl Worker for ReportWorker {
    async fn run(&self, job: Job, cx: JobContext) -> anyhow::Result<()> {
        let tenant_id = job.arg("tenant_id")?;
        let actor = job.arg("actor")?;
        let marker = format!("{}/{}/{}/{}", tenant_id, actor, "reports.generate", job.id());
        if self.replies.get(&marker).await?.is_some() {
            return Ok(());
        }
        let pdf = cx.render("monthly", &tenant_id).await?;
        let blob_path = format!("reports/{}/{}.pdf", tenant_id, job.id());
        self.blobs.put(&blob_path, &pdf).await?;
        self.replies.put(&marker, blob_path.as_bytes()).await?;
        Ok(())
    }
}

