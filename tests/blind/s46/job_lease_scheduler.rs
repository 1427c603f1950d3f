use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

#[derive(Default)]
pub struct LeaseTable {
    leases: Mutex<BTreeMap<u64, Instant>>,
}

impl LeaseTable {
    pub async fn acquire(&self, job_id: u64, ttl: Duration) -> bool {
        let mut l = self.leases.lock().await;
        let now = Instant::now();
        match l.get(&job_id) {
            Some(exp) if *exp > now => false,
            _ => {
                l.insert(job_id, now + ttl);
                true
            }
        }
    }
    pub async fn complete(&self, job_id: u64) {
        self.leases.lock().await.remove(&job_id);
    }
}

async fn run_job(id: u64) -> Result<(), String> {
    if id == 0 {
        return Err("bad".into());
    }
    Ok(())
}

pub async fn tick(leases: Arc<LeaseTable>, ready: Vec<u64>) -> Result<(), String> {
    for job_id in ready {
        let claim = leases.acquire(job_id, Duration::from_secs(30)).await;
        if !claim {
            continue;
        }
        run_job(job_id).await?;
        leases.complete(job_id).await;
    }
    Ok(())
}
