use base16ct::lower::encode_string;
use quillon::auth::Caller;
use quillon::{Form, Rejection, Reply};
use serde::Deserialize;
use sm3::{Digest, Sm3};

use crate::wallet::{TopUpReceipt, Wallet};

#[derive(Deserialize)]
pub struct TopUp {
    pub wallet_id: String,
    pub amount_minor: i64,
    pub funding_source: String,
}

pub struct TopUpRoutes {
    records: crate::records::ReplayRecords,
    wallet: Wallet,
}

impl TopUpRoutes {
    pub async fn submit(&self, caller: Caller, Form(form): Form<TopUp>) -> Result<Reply, Rejection> {
        if form.amount_minor <= 0 {
            return Err(Rejection::bad_request("amount must be positive"));
        }
        let mut hasher = Sm3::new();
        hasher.update(form.wallet_id.as_bytes());
        hasher.update(form.amount_minor.to_le_bytes());
        hasher.update(form.funding_source.as_bytes());
        let slot = self
            .records
            .entry(&caller.tenant_id, &caller.user_id, "topups.create", &encode_string(&hasher.finalize()))
            .await
            .map_err(Rejection::internal)?;

        if let Some(done) = slot.response() {
            return Ok(Reply::bytes(200, done.to_vec()).header("Idempotent-Replayed", "true"));
        }

        let receipt: TopUpReceipt = self
            .wallet
            .top_up(&caller.tenant_id, &form.wallet_id, form.amount_minor, &form.funding_source)
            .await
            .map_err(Rejection::upstream)?;
        let body = serde_json::to_vec(&receipt).map_err(Rejection::internal)?;
        slot.fill(body.clone()).await.map_err(Rejection::internal)?;
        Ok(Reply::bytes(201, body).header("content-type", "application/json"))
    }
}
