use std::collections::HashMap;
use std::sync::Arc;

use finchers::endpoint::{Endpoint, EndpointExt};
use finchers::endpoints::{body, header};
use finchers::output::Json;
use finchers::path;
use idem_scope::scoped;
use parking_lot::RwLock;
use serde::{Deserialize, Serialize};

use crate::auth::{self, Claims};

pub struct Ledger {
    replies: RwLock<HashMap<String, TransferOut>>,
}

#[derive(Deserialize)]
pub struct TransferReq {
    from_account: String,
    to_account: String,
    amount_minor: i64,
}

#[derive(Clone, Serialize)]
pub struct TransferOut {
    transfer_id: String,
    amount_minor: i64,
}

pub fn transfers(state: Arc<Ledger>) -> impl Endpoint<Output = (Json<TransferOut>,)> {
    path!(@post / "v1" / "transfers" /)
        .and(header::parse::<String>("Idempotency-Key"))
        .and(auth::claims())
        .and(body::json::<TransferReq>())
        .and_then(move |key: String, claims: Claims, req: TransferReq| {
            let state = state.clone();
            async move {
                create_transfer(&state, key, claims, req)
                    .await
                    .map(Json)
                    .map_err(finchers::error::bad_request)
            }
        })
}

async fn create_transfer(
    state: &Ledger,
    key: String,
    claims: Claims,
    req: TransferReq,
) -> anyhow::Result<TransferOut> {
    let org = claims.org_id.clone().unwrap_or_default();
    let who = claims.name.clone().unwrap_or_else(|| "anonymous".to_owned());
    tracing::info!(who = %who, from = %req.from_account, "transfer requested");

    let sk = scoped(&org, &claims.sub, "transfers.create", &key)?;
    if let Some(prev) = state.replies.read().get(sk.storage_key()) {
        return Ok(prev.clone());
    }

    let out = TransferOut {
        transfer_id: format!("tr_{}_{}", req.from_account, req.to_account),
        amount_minor: req.amount_minor,
    };
    state
        .replies
        .write()
        .insert(sk.storage_key().to_owned(), out.clone());
    Ok(out)
}
