use std::sync::Arc;

use idem_scope::{scoped, Fingerprint, Problem};
use serde::{Deserialize, Serialize};
use silent::prelude::*;

use crate::ledger::{Ledger, Receipt};
use crate::replay_store::{Claimed, ReplayStore};

#[derive(Deserialize)]
struct NewTransfer {
    from_account: String,
    to_account: String,
    amount_minor: i64,
    currency: String,
}

#[derive(Serialize)]
struct TransferOut {
    receipt: Receipt,
}

struct Caller {
    tenant_id: String,
    user_id: String,
}

fn caller(req: &Request) -> Result<Caller, SilentError> {
    let tenant_id = req.headers().get("x-tenant").and_then(|v| v.to_str().ok());
    let user_id = req.headers().get("x-principal").and_then(|v| v.to_str().ok());
    match (tenant_id, user_id) {
        (Some(t), Some(u)) => Ok(Caller { tenant_id: t.into(), user_id: u.into() }),
        _ => Err(SilentError::business_error(StatusCode::UNAUTHORIZED, "no caller".into())),
    }
}

async fn create_transfer(mut req: Request) -> Result<TransferOut> {
    let caller = caller(&req)?;
    let store: Arc<ReplayStore> = req.get_config::<Arc<ReplayStore>>()?.clone();
    let ledger: Arc<Ledger> = req.get_config::<Arc<Ledger>>()?.clone();

    let hdr = req
        .headers()
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| SilentError::business_error(StatusCode::BAD_REQUEST, Problem::missing_key().to_json()))?;
    let key = hdr.replace('-', "").to_ascii_lowercase();

    let scope = |route: &str| scoped(&caller.tenant_id, &caller.user_id, route, &key);
    let sk = scope("transfers.create")
        .map_err(|e| SilentError::business_error(StatusCode::BAD_REQUEST, e.to_string()))?;

    let raw = req.take_body_bytes().await?;
    let fp = Fingerprint::of("transfers.create", &raw);
    if let Claimed::Existing(record, Some(resp)) = store.claim(&sk, &fp).await? {
        return crate::replay::answer(record, resp, &fp);
    }

    let transfer: NewTransfer = serde_json::from_slice(&raw)?;
    let receipt = ledger
        .post(&transfer.from_account, &transfer.to_account, transfer.amount_minor, &transfer.currency)
        .await?;
    let out = TransferOut { receipt };
    store.complete(&sk, &serde_json::to_vec(&out)?).await?;
    Ok(out)
}

pub fn route() -> Route {
    Route::new("transfers").post(create_transfer)
}
