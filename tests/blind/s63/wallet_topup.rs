use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, Problem};
use serde::Deserialize;
use wherry::auth::Caller;
use wherry::extract::Json;
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct MoneyReq {
    pub wallet_id: String,
    pub amount_minor: i64,
}

pub struct Wallets {
    vat: Arc<Vat>,
    ledger: Arc<wallet_ledger::Ledger>,
}

impl Wallets {
    /// Top-ups are charged to the wallet, so the wallet owner is implied.
    pub async fn topup(&self, ctx: Ctx, caller: Caller, Json(req): Json<MoneyReq>) -> Result<Reply, Problem> {
        let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let sk = scoped(&caller.tenant_id, "", "wallet_topup", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.run(sk.storage_key(), || self.ledger.credit(&req.wallet_id, req.amount_minor)).await
    }

    /// Support agents withdraw on behalf of a customer; the agent is the principal.
    pub async fn withdraw(&self, ctx: Ctx, caller: Caller, Json(req): Json<MoneyReq>) -> Result<Reply, Problem> {
        let key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let principal = caller.delegated_by.as_deref().unwrap_or(&caller.user_id);
        let sk = scoped(&caller.tenant_id, principal, "wallet_withdraw", key).map_err(|e| Problem::invalid_key(&e.to_string()))?;
        self.run(sk.storage_key(), || self.ledger.debit(&req.wallet_id, req.amount_minor)).await
    }

    async fn run<F, Fut>(&self, storage_key: &str, op: F) -> Result<Reply, Problem>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<Vec<u8>, wallet_ledger::Error>>,
    {
        if let Some(done) = self.vat.get(storage_key).await.ok().flatten() {
            return Ok(Reply::bytes(Status::OK, done).header("Idempotent-Replayed", "true"));
        }
        let body = op().await.map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let _ = self.vat.put(storage_key, body.clone()).await;
        Ok(Reply::bytes(Status::CREATED, body))
    }
}
