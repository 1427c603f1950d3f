use std::sync::Arc;

use idem_scope::{scoped, Fingerprint, ScopedKey};
use poem::{handler, http::StatusCode, web::Data, Body, Request, Response};

use crate::auth::Operator;
use crate::imports::{ImportJobs, RateSheet};
use crate::replay::JobLedger;

#[derive(Clone)]
pub struct ImportDeps {
    pub ledger: Arc<JobLedger>,
    pub jobs: Arc<ImportJobs>,
}

async fn run_import(deps: ImportDeps, key: ScopedKey, fp: Fingerprint, account_id: String, raw: Vec<u8>) -> anyhow::Result<()> {
    if !deps.ledger.try_claim(&key, &fp).await? {
        tracing::info!("import already claimed, skipping");
        return Ok(());
    }
    let sheet: RateSheet = serde_json::from_slice(&raw)?;
    let report = deps.jobs.import_rates(&account_id, sheet).await?;
    deps.ledger.mark_completed(&key, &serde_json::to_vec(&report)?).await?;
    Ok(())
}

#[handler]
pub async fn import_rates(req: &Request, op: Data<&Operator>, deps: Data<&ImportDeps>, body: Body) -> poem::Result<Response> {
    let Some(client_key) = req.header("Idempotency-Key") else {
        return Ok(Response::builder().status(StatusCode::BAD_REQUEST).body(idem_scope::Problem::missing_key().to_json()));
    };
    let raw = body.into_vec().await?;
    let key = scoped(&op.account_id, &op.user_id, "rates.import", client_key).map_err(poem::error::BadRequest)?;
    let fp = Fingerprint::of("rates.import", &raw);
    let job_id = uuid::Uuid::new_v4();
    deps.jobs.insert(job_id, &op.account_id).await;
    let deps = deps.0.clone();
    let account_id = op.account_id.clone();
    tokio::spawn(async move {
        if let Err(e) = run_import(deps, key, fp, account_id, raw).await {
            tracing::error!(error = %e, "rate import failed");
        }
    });
    Ok(Response::builder().status(StatusCode::ACCEPTED).header("Location", format!("/v1/rates/imports/{job_id}")).finish())
}
