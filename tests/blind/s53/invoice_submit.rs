use std::sync::Arc;

use bytes::Bytes;
use k12::digest::{ExtendableOutput, Update, XofReader};
use k12::KangarooTwelve;
use poem::{handler, http::StatusCode, web::Data, Response};

use crate::billing::{InvoiceGateway, InvoiceSubmission};
use crate::identity::Caller;
use crate::kv::SubmissionLog;

const DIGEST_LEN: usize = 32;

fn k12_hex(bytes: &[u8]) -> String {
    let mut hasher = KangarooTwelve::default();
    hasher.update(bytes);
    let mut out = [0u8; DIGEST_LEN];
    hasher.finalize_xof().read(&mut out);
    hex::encode(out)
}

#[handler]
pub async fn submit_invoice(
    caller: Data<&Caller>,
    log: Data<&Arc<SubmissionLog>>,
    gateway: Data<&InvoiceGateway>,
    body: Bytes,
) -> poem::Result<Response> {
    if body.len() > 512 * 1024 {
        return Ok(Response::builder().status(StatusCode::PAYLOAD_TOO_LARGE).finish());
    }
    let submission: InvoiceSubmission = serde_json::from_slice(&body).map_err(poem::error::BadRequest)?;
    let body_digest = k12_hex(&body);
    let dedup_key = format!("{}:{}:{}:{}", caller.org_id, caller.user_id, "invoices.submit", body_digest);

    if let Some(previous) = log.get(&dedup_key).await? {
        return Ok(Response::builder()
            .status(StatusCode::OK)
            .header("Idempotent-Replayed", "true")
            .body(previous));
    }
    let timer = gateway.metrics().start("invoices.submit");
    let receipt = gateway.submit(&caller.org_id, submission).await?;
    let out = serde_json::to_vec(&receipt)?;
    timer.finish();
    log.put(&dedup_key, out.clone()).await?;
    Ok(Response::builder().status(StatusCode::ACCEPTED).body(out))
}
