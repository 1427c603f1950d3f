use std::time::Duration;

use effectum::{Job, JobRunner, Queue, RunningJob};
use idem_scope::{scoped, ScopedKey};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct ReportPayload {
    pub org_id: String,
    pub user_id: String,
    pub report: String,
    pub range_days: u32,
}

pub struct ReportApi {
    queue: Queue,
    accepted: crate::replay_store::AsyncStore,
}

fn escape_org(org: &str) -> String {
    org.replace('#', "%23")
}

impl ReportApi {
    pub async fn request_report(
        &self,
        headers: &http::HeaderMap,
        payload: ReportPayload,
    ) -> Result<(u16, String), crate::Error> {
        let key = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or(crate::Error::MissingKey)?;
        let org = escape_org(&payload.org_id);
        let sk: ScopedKey = scoped(&org, &payload.user_id, "reports.generate", key)?;

        if let Some(job_id) = self.accepted.get(sk.storage_key()).await? {
            return Ok((202, String::from_utf8_lossy(&job_id).into_owned()));
        }

        let job = Job::builder("generate_report")
            .json_payload(&payload)?
            .timeout(Duration::from_secs(900))
            .max_retries(3)
            .build();
        let job_id = self.queue.add_job(job).await?;
        self.accepted
            .put(sk.storage_key(), job_id.to_string().as_bytes(), Duration::from_secs(86_400))
            .await?;
        Ok((202, job_id.to_string()))
    }
}

async fn generate_report(job: RunningJob, ctx: crate::reports::Ctx) -> Result<(), crate::Error> {
    let payload: ReportPayload = job.json_payload()?;
    let file = ctx.render(&payload.org_id, &payload.report, payload.range_days).await?;
    ctx.deliver(&payload.org_id, &payload.user_id, file).await
}

pub async fn start_workers(queue: &Queue, ctx: crate::reports::Ctx) -> Result<(), crate::Error> {
    let runner = JobRunner::builder("generate_report", generate_report).build();
    let _worker = effectum::Worker::builder(queue, ctx)
        .max_concurrency(4)
        .jobs([runner])
        .build()
        .await?;
    Ok(())
}
