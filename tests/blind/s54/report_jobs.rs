use std::sync::Arc;

use idem_scope::{scoped, ScopeError, ScopedKey};
use ledgerkit::kv::Kv;

pub struct ReportJob {
    pub job_id: String,
    pub tenant_id: String,
    pub principal_id: String,
    pub report: String,
}

pub struct Reports {
    kv: Arc<Kv>,
    engine: Arc<reporting::Engine>,
}

fn key_for(tenant_id: &str, principal_id: &str, route: &str, id: &str) -> Result<ScopedKey, ScopeError> {
    scoped(tenant_id, principal_id, route, id)
}

impl Reports {
    pub async fn request(&self, auth: &gatehouse::Auth, req: &gatehouse::http::Request, report: &str) -> anyhow::Result<String> {
        let client_key = req
            .header_str("Idempotency-Key")
            .ok_or_else(|| anyhow::anyhow!("Idempotency-Key required"))?;
        let sk = key_for(&auth.tenant_id, &auth.principal_id, "reports.generate", client_key)?;
        self.generate_once(sk.storage_key(), &auth.tenant_id, report).await
    }

    pub async fn run_job(&self, job: &ReportJob) -> anyhow::Result<String> {
        let sk = key_for(&job.tenant_id, &job.principal_id, "reports.generate", &job.job_id)?;
        self.generate_once(sk.storage_key(), &job.tenant_id, &job.report).await
    }

    pub async fn run_nightly(&self, tenant_id: &str, principal_id: &str, run_id: u64) -> anyhow::Result<String> {
        let route = "reports.generate";
        let k = format!("s:{tenant_id}:{principal_id}:{route}:{run_id}");
        self.generate_once(&k, tenant_id, "nightly_summary").await
    }

    async fn generate_once(&self, k: &str, tenant_id: &str, report: &str) -> anyhow::Result<String> {
        if let Some(url) = self.kv.get(k).await? {
            return Ok(String::from_utf8(url)?);
        }
        let url = self.engine.render(tenant_id, report).await?;
        self.kv.put(k, url.clone().into_bytes()).await?;
        Ok(url)
    }
}
