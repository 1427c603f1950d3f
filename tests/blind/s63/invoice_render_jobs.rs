use std::sync::Arc;
use std::time::Duration;

use cistern::queue::{Job, WorkQueue};
use cistern::vat::Vat;
use idem_scope::{scoped, scoped_server, Problem};
use serde::{Deserialize, Serialize};
use wherry::auth::Caller;
use wherry::extract::State;
use wherry::{Ctx, Reply, Status};

#[derive(Serialize, Deserialize)]
pub struct RenderArgs {
    pub tenant_id: String,
    pub user_id: String,
    pub invoice_no: String,
}

#[derive(Clone)]
pub struct Rendering {
    pub vat: Arc<Vat>,
    pub queue: Arc<WorkQueue>,
    pub renderer: Arc<pdfgen::Renderer>,
}

/// Synchronous render for small invoices.
pub async fn render_now(ctx: Ctx, caller: Caller, State(r): State<Rendering>) -> Result<Reply, Problem> {
    let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.tenant_id, &caller.user_id, "render_invoice", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(pdf) = r.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, pdf).header("Idempotent-Replayed", "true"));
    }
    let invoice_no = ctx.query("invoice").ok_or_else(|| Problem::invalid_key("invoice"))?;
    let pdf = r.renderer.render_invoice(&caller.tenant_id, invoice_no).await;
    let _ = r.vat.put(sk.storage_key(), pdf.clone()).await;
    Ok(Reply::bytes(Status::OK, pdf))
}

/// Background worker for the nightly batch: the queue may hand out a job twice
/// when a worker dies after rendering.
pub async fn work_render_jobs(r: Rendering) -> Result<(), cistern::Error> {
    loop {
        let Some(job): Option<Job> = r.queue.next("render_invoice").await? else {
            tokio::time::sleep(Duration::from_secs(5)).await;
            continue;
        };
        let args: RenderArgs = match serde_json::from_slice(&job.payload) {
            Ok(a) => a,
            Err(_) => {
                r.queue.bury(job.id).await?;
                continue;
            }
        };
        let sk = match scoped(&args.tenant_id, &args.user_id, "render_invoice", &job.id.to_string()) {
            Ok(sk) => sk,
            Err(_) => {
                r.queue.bury(job.id).await?;
                continue;
            }
        };
        if r.vat.get(sk.storage_key()).await?.is_none() {
            let pdf = r.renderer.render_invoice(&args.tenant_id, &args.invoice_no).await;
            r.vat.put(sk.storage_key(), pdf).await?;
        }
        r.queue.ack(job.id).await?;
    }
}

/// Purges rendered PDFs of deleted invoices; runs once per tenant per night.
pub async fn work_purge_jobs(r: Rendering) -> Result<(), cistern::Error> {
    while let Some(job) = r.queue.next("purge_invoice").await? {
        let args: RenderArgs = serde_json::from_slice(&job.payload).map_err(cistern::Error::decode)?;
        let Ok(sk) = scoped_server(&args.tenant_id, &args.user_id, "purge_invoice", &job.id.to_string()) else {
            r.queue.bury(job.id).await?;
            continue;
        };
        if r.vat.get(sk.storage_key()).await?.is_none() {
            r.renderer.purge(&args.tenant_id, &args.invoice_no).await;
            r.vat.put(sk.storage_key(), b"purged".to_vec()).await?;
        }
        r.queue.ack(job.id).await?;
    }
    Ok(())
}
