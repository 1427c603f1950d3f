//! Report generation: the HTTP intake pushes an apalis job, a worker renders it.
use apalis::prelude::*;
use idem_scope::{Fingerprint, Record};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone, Hash)]
pub struct ReportRequest {
    pub kind: String,
    pub from: String,
    pub to: String,
}

pub struct Intake<S> {
    jobs: MemoryStorage<ReportRequest>,
    idem: S,
}

impl<S: crate::idem::Store> Intake<S> {
    pub async fn request_report(
        &mut self,
        raw_body: bytes::Bytes,
        who: &crate::auth::Who,
    ) -> Result<String, crate::Error> {
        let req: ReportRequest = serde_json::from_slice(&raw_body)?;
        let digest = blake3::hash(&serde_json::to_vec(&req)?);
        let key = idem_scope::scoped(&who.tenant_id, &who.user_id, "reports.generate", &digest.to_hex())?;
        let fingerprint = Fingerprint::of("reports.generate", &raw_body);

        if let Some(rec) = self.idem.get(key.storage_key()).await? {
            return Ok(rec.job_id);
        }
        let parts = self.jobs.push(req).await?;
        let job_id = parts.task_id.to_string();
        self.idem
            .put(key.storage_key(), Record::completed(fingerprint).with_job(job_id.clone()))
            .await?;
        Ok(job_id)
    }
}

pub async fn render_report(job: ReportRequest, task_id: TaskId, artifacts: Data<crate::artifacts::Bucket>) -> Result<(), Error> {
    let pdf = crate::render::pdf(&job).await.map_err(|e| Error::Failed(std::sync::Arc::new(e.into())))?;
    let object = format!("reports/{}/{}.pdf", job.kind, task_id);
    artifacts.put(&object, pdf).await.map_err(|e| Error::Failed(std::sync::Arc::new(e.into())))?;
    Ok(())
}
