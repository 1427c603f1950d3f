use std::time::Duration;

use gimbal::{Ctx, Reply};
use idem_scope::{scoped, ClaimGuard, Fingerprint};
use pyxis::jobs::{Job, JobCtx};
use pyxis::kv::{Claimed, Shelf, StoredResponse};
use serde::Deserialize;

use crate::reconcile::{Reconciler, ReconcileError};

const LEASE: Duration = Duration::from_secs(300);
const TTL: Duration = Duration::from_secs(24 * 3600);

#[derive(Debug, Deserialize)]
pub struct ReconcilePayload {
    pub tenant_id: String,
    pub user_id: String,
    pub account: String,
}

pub struct Reconciliation {
    shelf: Shelf,
    reconciler: Reconciler,
}

impl Reconciliation {
    async fn run_once(&self, key: idem_scope::ScopedKey, fp: Fingerprint, tenant_id: &str, account: &str) -> Result<Vec<u8>, ReconcileError> {
        let claimed = self.shelf.claim(&key, &fp, LEASE).await?;
        let shelf = self.shelf.clone();
        let release_key = key.clone();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = shelf.release(&release_key).await;
            });
        });
        if let Claimed::Existing(_, stored) = claimed {
            guard.complete();
            return stored.map(|s| s.body).ok_or(ReconcileError::InProgress);
        }
        let report = self.reconciler.reconcile(tenant_id, account).await?;
        let stored = StoredResponse { status: 200, headers: Vec::new(), body: report.to_json() };
        self.shelf.complete(&key, &stored, TTL).await?;
        guard.complete();
        Ok(stored.body)
    }

    pub async fn on_demand(&self, ctx: Ctx, account: String) -> Result<Reply, ReconcileError> {
        let auth = ctx.auth();
        let k = ctx.header("Idempotency-Key").ok_or(ReconcileError::MissingKey)?;
        let key = scoped(&auth.tenant_id, &auth.user_id, "reconcile.run", k)?;
        let fp = Fingerprint::of("reconcile.run", account.as_bytes());
        let body = self.run_once(key, fp, &auth.tenant_id, &account).await?;
        Ok(Reply::ok(body))
    }

    pub async fn nightly(&self, job: &JobCtx, payload: ReconcilePayload) -> Result<(), ReconcileError> {
        let key = scoped(&payload.tenant_id, &payload.user_id, "reconcile.run", job.job_id())?;
        let fp = Fingerprint::of("reconcile.run", payload.account.as_bytes());
        self.run_once(key, fp, &payload.tenant_id, &payload.account).await?;
        Ok(())
    }
}

impl Job for Reconciliation {
    type Payload = ReconcilePayload;
    const QUEUE: &'static str = "reconcile-nightly";
}
