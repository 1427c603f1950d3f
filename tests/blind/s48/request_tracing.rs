use crate::records::Records;
use idem_scope::{scoped, ClaimGuard, Fingerprint, Problem};
use lambda_http::{Body, Error, Request, RequestExt, Response};
use opensearch::{IndexParts, OpenSearch};
use serde_json::json;
use std::sync::Arc;

pub struct Deps {
    pub records: Arc<Records>,
    pub logs: OpenSearch,
}

fn problem(p: Problem) -> Result<Response<Body>, Error> {
    Ok(Response::builder().status(p.status()).header("content-type", idem_scope::PROBLEM_CONTENT_TYPE).body(Body::from(p.to_json()))?)
}

pub async fn create_dispute(deps: &Deps, req: Request) -> Result<Response<Body>, Error> {
    let request_id = req.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or("none").to_owned();
    let span = tracing::info_span!("dispute", %request_id);
    let _e = span.enter();
    let rc = req.request_context();
    let auth = rc.authorizer().ok_or("401")?;
    let merchant_id = auth.fields.get("merchant_id").and_then(|v| v.as_str()).ok_or("401")?;
    let caller_id = auth.fields.get("caller_id").and_then(|v| v.as_str()).ok_or("401")?;
    let Some(ck) = req.headers().get("Idempotency-Key").and_then(|v| v.to_str().ok()) else {
        return problem(Problem::missing_key());
    };
    let key = scoped(merchant_id, caller_id, "disputes.create", ck)?;
    let fp = Fingerprint::of("disputes.create", req.body().as_ref());
    if !deps.records.try_claim(&key, &fp).await? {
        return problem(Problem::in_progress(ck));
    }
    let records = deps.records.clone();
    let release_key = key.clone();
    let guard = ClaimGuard::new(move || {
        tokio::spawn(async move {
            let _ = records.release(&release_key).await;
        });
    });
    deps.logs
        .index(IndexParts::Index("access-log"))
        .body(json!({ "request_id": request_id, "route": "disputes.create", "idempotency_key": ck }))
        .send()
        .await?;
    let out = json!({ "dispute": "opened" }).to_string();
    deps.records.complete(&key, out.as_bytes()).await?;
    guard.complete();
    Ok(Response::builder().status(201).body(Body::from(out))?)
}
