use std::sync::Arc;
use std::time::Duration;

use idem_scope::scoped;
use kestrel::{Exchange, Outcome, Status};
use serde::{Deserialize, Serialize};
use tessera::kv::Kv;
use tessera::lease::LeaseTable;
use tessera::queue::{Job, WorkQueue};

use crate::warehouse::Exporter;

#[derive(Serialize, Deserialize)]
pub struct ExportJob {
    pub tenant_id: String,
    pub user_id: String,
    pub table: String,
}

pub struct ExportService {
    kv: Arc<Kv>,
    queue: Arc<WorkQueue>,
    leases: Arc<LeaseTable>,
    exporter: Arc<Exporter>,
}

impl ExportService {
    pub async fn request(&self, ex: &Exchange) -> Outcome {
        let (Some(who), Some(retry), Some(table)) = (ex.identity(), ex.header("Idempotency-Key"), ex.query("table")) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        let Ok(key) = scoped(&who.tenant_id, &who.user_id, "export_table", retry) else {
            return Outcome::status(Status::BAD_REQUEST);
        };
        if let Ok(Some(prev)) = self.kv.get(key.storage_key()).await {
            return Outcome::bytes(Status::OK, prev);
        }
        let job = ExportJob { tenant_id: who.tenant_id.clone(), user_id: who.user_id.clone(), table: table.to_owned() };
        let job_id = self.queue.push("exports", &job).await;
        let bytes = format!("{{\"job\":\"{job_id}\"}}").into_bytes();
        let _ = self.kv.put(key.storage_key(), bytes.clone()).await;
        Outcome::bytes(Status::ACCEPTED, bytes)
    }

    pub async fn work(&self, worker: &str) {
        while let Some(job) = self.queue.next::<ExportJob>("exports").await {
            let Ok(lease) = self.leases.acquire(job.id(), worker, Duration::from_secs(900)).await else {
                continue;
            };
            let spec: &ExportJob = job.payload();
            let Ok(key) = scoped(&spec.tenant_id, &spec.user_id, "export_table", job.id()) else {
                job.bury("bad scope").await;
                continue;
            };
            if self.kv.exists(key.storage_key()).await.unwrap_or(false) {
                job.ack().await;
                continue;
            }
            let url = self.exporter.export(&spec.tenant_id, &spec.table).await;
            let _ = self.kv.put(key.storage_key(), url.into_bytes()).await;
            job.ack().await;
            let _ = self.leases.release(&lease).await;
        }
    }
}
