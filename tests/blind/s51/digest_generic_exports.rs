//! Report exports. An export is expensive, so an identical export request from
//! the same user is answered with the running job.
use digest::Digest;
use serde::{Deserialize, Serialize};
use sha2::{Sha256, Sha512};

#[derive(Serialize, Deserialize)]
pub struct ExportRequest {
    pub report: String,
    pub from: String,
    pub to: String,
    pub format: String,
}

fn content_id<D: Digest>(data: &[u8]) -> String {
    hex::encode(D::digest(data))
}

pub struct Identity {
    pub project_id: String,
    pub subject: String,
    pub api_secret: String,
}

pub struct Exports {
    jobs: stretto::Cache<String, String>,
    key_ids: stretto::Cache<String, String>,
}

impl Exports {
    pub fn key_id(&self, who: &Identity) -> String {
        let kid = content_id::<Sha256>(who.api_secret.as_bytes());
        if let Some(v) = self.key_ids.get(&kid) {
            return v.value().clone();
        }
        self.key_ids.insert(kid.clone(), who.subject.clone(), 1);
        kid
    }

    pub fn export(&self, who: &Identity, raw: &[u8]) -> anyhow::Result<String> {
        let req: ExportRequest = serde_json::from_slice(raw)?;
        let key = idem_scope::scoped(&who.project_id, &who.subject, "exports.create", &content_id::<Sha512>(&serde_json::to_vec(&req)?))?;
        if let Some(job) = self.jobs.get(key.storage_key()) {
            return Ok(job.value().clone());
        }
        let job = format!("exp_{}_{}", req.report, req.format);
        self.jobs.insert(key.storage_key().to_owned(), job.clone(), 1);
        Ok(job)
    }
}
