use std::sync::Arc;

use idem_scope::{scoped, Fingerprint, Problem};
use poem::{handler, http::StatusCode, web::{Data, Json}, Body, Request, Response};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::ledger::Ledger;
use crate::merchants::MerchantCtx;
use crate::replay::IdemRepo;

#[derive(Deserialize)]
pub struct PayoutRequest {
    pub amount_minor: i64,
    pub currency: String,
    pub bank_account_ref: String,
    pub memo: Option<String>,
}

#[derive(Serialize)]
pub struct PayoutCreated {
    pub payout_id: Uuid,
    pub status: &'static str,
}

fn problem(p: Problem) -> Response {
    Response::builder()
        .status(StatusCode::from_u16(p.status()).unwrap_or(StatusCode::BAD_REQUEST))
        .content_type(idem_scope::PROBLEM_CONTENT_TYPE)
        .body(p.to_json())
}

#[handler]
pub async fn create_payout(
    req: &Request,
    merchant: Data<&MerchantCtx>,
    repo: Data<&Arc<IdemRepo>>,
    ledger: Data<&Ledger>,
    raw: Body,
) -> poem::Result<Response> {
    let Some(client_key) = req.header("Idempotency-Key").map(str::to_owned) else {
        return Ok(problem(Problem::missing_key()));
    };
    let raw = raw.into_bytes().await?;
    let fingerprint = Fingerprint::of("payouts.create", &raw);
    let key = match scoped(&merchant.merchant_id, "", "payouts.create", &client_key) {
        Ok(k) => k,
        Err(e) => return Ok(problem(Problem::invalid_key(&e.to_string()))),
    };
    if let Some(prev) = repo.load(&key).await? {
        if prev.fingerprint.as_bytes() != fingerprint.as_bytes() {
            return Ok(problem(Problem::mismatch(&client_key)));
        }
        return Ok(Response::builder().header("Idempotent-Replayed", "true").body(prev.body));
    }
    let input: PayoutRequest = serde_json::from_slice(&raw).map_err(poem::error::BadRequest)?;
    let payout_id = Uuid::new_v4();
    let memo = input.memo.clone().unwrap_or_default();
    ledger.debit(&merchant.merchant_id, payout_id, input.amount_minor, &input.currency, &memo).await?;
    let body = serde_json::to_vec(&PayoutCreated { payout_id, status: "pending" })?;
    repo.save(&key, &fingerprint, &body).await?;
    Ok(Response::builder().status(StatusCode::CREATED).body(body))
}
