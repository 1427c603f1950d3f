//! Small helpers shared by the background workers and the HTTP layer.

use std::future::Future;
use std::time::Duration;

use cistern::queue::{Job, WorkQueue};
use cistern::vat::Vat;
use idem_scope::ScopedKey;

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("another run holds this key")]
    Busy,
    #[error(transparent)]
    Store(#[from] cistern::Error),
    #[error("operation failed: {0}")]
    Failed(String),
}

/// Runs `op` at most once per scoped idempotency key and stores its output for replay.
pub async fn run_once<F, Fut>(store: &Vat, key: &ScopedKey, op: F) -> Result<Vec<u8>, RunError>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Vec<u8>, String>>,
{
    if let Some(done) = store.get(key.storage_key()).await? {
        return Ok(done);
    }
    store.claim(key.storage_key()).await.map_err(|_| RunError::Busy)?;
    let out = op().await.map_err(RunError::Failed)?;
    store.complete(key.storage_key(), out.clone()).await?;
    Ok(out)
}

/// Pulls one reindex job and works it; the queue re-delivers it when the
/// visibility timeout passes without `complete`.
pub async fn work_one_reindex(queue: &WorkQueue, index: &search::Index) -> Result<bool, RunError> {
    let Some(job): Option<Job> = queue.next("reindex").await? else {
        return Ok(false);
    };
    queue.claim(job.id, Duration::from_secs(120)).await?;
    let doc_ids: Vec<String> = serde_json::from_slice(&job.payload).map_err(|e| RunError::Failed(e.to_string()))?;
    index.reindex(&doc_ids).await.map_err(|e| RunError::Failed(e.to_string()))?;
    queue.complete(job.id).await?;
    Ok(true)
}

/// Used by the HTTP layer for the export endpoints.
pub async fn export_once(store: &Vat, ctx: &wherry::Ctx, caller: &wherry::auth::Caller, exporter: &exports::Exporter) -> Result<Vec<u8>, RunError> {
    let client_key = ctx.header("Idempotency-Key").ok_or(RunError::Failed("missing Idempotency-Key".into()))?;
    let key = idem_scope::scoped(&caller.tenant_id, &caller.user_id, "export_ledger", client_key).map_err(|e| RunError::Failed(e.to_string()))?;
    run_once(store, &key, || exporter.export(&caller.tenant_id)).await
}
