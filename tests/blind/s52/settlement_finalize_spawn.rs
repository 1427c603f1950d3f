use std::sync::Arc;
use std::time::Duration;

use idem_scope::scoped_server;
use tokio::sync::mpsc;

use crate::ledger::Ledger;
use crate::store::ClaimStore;

const LEASE: Duration = Duration::from_secs(120);

#[derive(Debug, Clone)]
pub struct FinalizeJob {
    pub tenant_id: String,
    pub user_id: String,
    pub batch_id: String,
}

pub struct Finalizer {
    store: Arc<ClaimStore>,
    ledger: Arc<Ledger>,
}

impl Finalizer {
    pub fn run(self: Arc<Self>, mut jobs: mpsc::Receiver<FinalizeJob>) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            while let Some(job) = jobs.recv().await {
                let this = Arc::clone(&self);
                tokio::spawn(async move { this.finalize(job).await });
            }
        })
    }

    async fn finalize(&self, job: FinalizeJob) {
        let store = Arc::clone(&self.store);
        let ledger = Arc::clone(&self.ledger);
        let handle = tokio::spawn(async move {
            let key = scoped_server(&job.tenant_id, &job.user_id, "settlement.finalize", &job.batch_id)
                .expect("batch ids are validated upstream");
            if !store.try_claim(&key, LEASE).await.expect("claim store reachable") {
                tracing::debug!(batch = %job.batch_id, "already finalized elsewhere");
                return;
            }
            let totals = ledger.totals(&job.tenant_id, &job.batch_id).await.expect("ledger totals");
            let posted = ledger.post_settlement(&job.tenant_id, &totals).await.expect("post settlement");
            store.complete(&key, &posted).await.ok();
        });
        if let Err(e) = handle.await {
            tracing::error!(error = %e, "finalize task failed");
        }
    }
}
