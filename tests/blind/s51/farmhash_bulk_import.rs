//! Bulk contact import. A job is started at most once per submitted spec.
use serde::Deserialize;

#[derive(Deserialize)]
pub struct ImportSpec {
    pub source_url: String,
    pub mapping: Vec<(String, String)>,
}

pub struct Workspace {
    pub workspace_id: String,
    pub user_id: String,
}

#[async_trait::async_trait]
pub trait ImportJobs: Send + Sync {
    async fn lookup(&self, key: &idem_scope::ScopedKey) -> anyhow::Result<Option<String>>;
    async fn save(&self, key: &idem_scope::ScopedKey, job_id: &str) -> anyhow::Result<()>;
}

pub async fn start_import(jobs: &dyn ImportJobs, ws: &Workspace, req: &http::Request<Vec<u8>>) -> anyhow::Result<String> {
    let raw = req.body();
    let spec: ImportSpec = serde_json::from_slice(raw)?;
    let h = farmhash::hash64(raw);
    let key = idem_scope::scoped(&ws.workspace_id, &ws.user_id, "imports.start", &format!("{h:016x}"))?;
    if let Some(job) = jobs.lookup(&key).await? {
        return Ok(job);
    }
    let shard = farmhash::hash32(ws.workspace_id.as_bytes()) % 16;
    let job_id = enqueue(shard, &spec).await?;
    jobs.save(&key, &job_id).await?;
    Ok(job_id)
}

async fn enqueue(shard: u32, spec: &ImportSpec) -> anyhow::Result<String> {
    Ok(format!("imp_{shard}_{}", spec.mapping.len()))
}
