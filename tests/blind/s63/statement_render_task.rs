use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use tokio::sync::Semaphore;
use wherry::auth::Caller;
use wherry::extract::State;
use wherry::{Ctx, Reply, Status};

#[derive(Clone)]
pub struct Statements {
    pub vat: Arc<Vat>,
    pub renderer: Arc<pdfgen::Renderer>,
    pub mailer: Arc<notify::Mailer>,
    pub render_slots: Arc<Semaphore>,
}

/// Statement generation is slow; the request returns 202 and the work continues
/// in the background. Retries with the same key get the stored result.
pub async fn request_statement(ctx: Ctx, caller: Caller, State(s): State<Statements>) -> Result<Reply, Problem> {
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?.to_owned();
    let sk = scoped(&caller.account_id, &caller.user_id, "request_statement", &client_key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    if let Some(done) = s.vat.get(sk.storage_key()).await.ok().flatten() {
        return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
    }

    let month = ctx.query("month").unwrap_or("current").to_owned();
    tokio::spawn(async move {
        let _permit = s.render_slots.acquire().await.expect("render semaphore closed");
        s.vat.try_claim(sk.storage_key()).await.expect("statement claim");
        let doc = s.renderer.collect(&caller.account_id, &month).await;
        let pdf = s.renderer.render(&doc).await.expect("validated statements always render");
        s.mailer.send_statement(&caller.user_id, &pdf).await;
        let _ = s.vat.complete(sk.storage_key(), pdf).await;
    });
    Ok(Reply::json(Status::ACCEPTED, &serde_json::json!({ "status": "queued" })))
}

/// Polled by the app until the statement is ready.
pub async fn statement_status(ctx: Ctx, caller: Caller, State(s): State<Statements>) -> Result<Reply, Problem> {
    let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
    let sk = scoped(&caller.account_id, &caller.user_id, "request_statement", client_key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
    match s.vat.get(sk.storage_key()).await.ok().flatten() {
        Some(pdf) => Ok(Reply::bytes(Status::OK, pdf).header("Content-Type", "application/pdf")),
        None => Ok(Reply::json(Status::ACCEPTED, &serde_json::json!({ "status": "rendering" })).header("Retry-After", "5")),
    }
}
