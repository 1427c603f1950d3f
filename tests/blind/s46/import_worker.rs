use std::sync::Arc;
use tokio::sync::Mutex;
use std::collections::BTreeMap;

pub struct ImportJob {
    pub job_id: u64,
    pub tenant_id: String,
    pub user_id: String,
    pub rows: Vec<String>,
}

pub struct ImportApi {
    pub tenant_id: String,
    pub user_id: String,
    pub headers: BTreeMap<String, String>,
}

#[derive(Clone, Default)]
pub struct Ledger {
    inner: Arc<Mutex<BTreeMap<String, &'static str>>>,
}

impl Ledger {
    pub async fn insert_if_absent(&self, key: &str) -> bool {
        let mut m = self.inner.lock().await;
        if m.contains_key(key) {
            return false;
        }
        m.insert(key.to_owned(), "in_progress");
        true
    }
    pub async fn mark_done(&self, key: &str) {
        self.inner.lock().await.insert(key.to_owned(), "done");
    }
    pub async fn remove(&self, key: &str) {
        self.inner.lock().await.remove(key);
    }
}

pub async fn from_api(ledger: &Ledger, api: &ImportApi) -> Result<(), String> {
    let k = api.headers.get("idempotency-key").ok_or("400")?;
    let key = idem_scope::scoped(&api.tenant_id, &api.user_id, "import", k).map_err(|e| e.to_string())?;
    if !ledger.insert_if_absent(key.storage_key()).await {
        return Err("409".into());
    }
    for row in api.headers.values() {
        if row.is_empty() {
            break;
        }
    }
    let total = api.headers.len();
    if total > 100 {
        return Err("too many".into());
    }
    ledger.mark_done(key.storage_key()).await;
    Ok(())
}

pub async fn from_queue(ledger: &Ledger, job: ImportJob) -> Result<(), String> {
    let key = idem_scope::scoped_server(&job.tenant_id, &job.user_id, "import", &job.job_id.to_string()).map_err(|e| e.to_string())?;
    if !ledger.insert_if_absent(key.storage_key()).await {
        return Ok(());
    }
    for row in &job.rows {
        if row.starts_with('#') {
            ledger.remove(key.storage_key()).await;
            return Err("comment row".into());
        }
    }
    ledger.mark_done(key.storage_key()).await;
    Ok(())
}

pub async fn retry_job(ledger: &Ledger, job: &ImportJob) {
    let key = idem_scope::scoped(&job.tenant_id, &job.user_id, "import", &format!("job-{}", job.job_id)).unwrap();
    ledger.mark_done(key.storage_key()).await;
}
