use std::sync::Arc;

use cistern::vat::Vat;
use idem_scope::{scoped, ClaimGuard, Problem, ScopeError, ScopedKey};
use serde::{Deserialize, Serialize};
use wherry::auth::Caller;
use wherry::extract::Json;
use wherry::{Ctx, Reply, Status};

#[derive(Deserialize)]
pub struct RefundReq {
    pub payment_id: String,
    pub amount_minor: i64,
}

#[derive(Serialize)]
struct RefundOut {
    refund_id: String,
}

pub struct Refunds {
    vat: Arc<Vat>,
    psp: Arc<psp::Client>,
}

fn reversal_scope(caller: &Caller, client_key: &str) -> Result<ScopedKey, ScopeError> {
    scoped(&caller.tenant_id, &caller.user_id, "refund_reversal", client_key)
}

impl Refunds {
    pub async fn create(&self, ctx: Ctx, caller: Caller, Json(req): Json<RefundReq>) -> Result<Reply, Problem> {
        let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?.to_owned();
        let tenant = caller.tenant_id.clone();
        let user_id = caller.user_id.clone();
        let route = "refund";
        let compose = |k: &str| tenant.clone() + "/" + &user_id + "/" + route + "/" + k;

        if let Some(prev) = self.vat.get(&compose(&client_key)).await.map_err(|_| Problem::in_progress(&client_key))? {
            return Ok(Reply::bytes(Status::OK, prev).header("Idempotent-Replayed", "true"));
        }
        let refund_id = self
            .psp
            .refund(&req.payment_id, req.amount_minor)
            .await
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let body = serde_json::to_vec(&RefundOut { refund_id }).unwrap_or_default();
        let _ = self.vat.put(&compose(&client_key), body.clone()).await;
        Ok(Reply::bytes(Status::CREATED, body))
    }

    pub async fn reverse(&self, ctx: Ctx, caller: Caller, Json(req): Json<RefundReq>) -> Result<Reply, Problem> {
        let client_key = ctx.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let sk = reversal_scope(&caller, client_key).map_err(|e| Problem::invalid_key(&e.to_string()))?;

        if let Some(prev) = self.vat.get(sk.storage_key()).await.map_err(|_| Problem::in_progress(client_key))? {
            return Ok(Reply::bytes(Status::OK, prev).header("Idempotent-Replayed", "true"));
        }
        self.vat.claim(sk.storage_key()).await.map_err(|_| Problem::in_progress(client_key))?;
        let vat = self.vat.clone();
        let held = sk.storage_key().to_owned();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = vat.release(&held).await;
            });
        });

        let refund_id = self
            .psp
            .reverse_refund(&req.payment_id, req.amount_minor)
            .await
            .map_err(|e| Problem::invalid_key(&e.to_string()))?;
        let body = serde_json::to_vec(&RefundOut { refund_id }).unwrap_or_default();
        self.vat.complete(sk.storage_key(), body.clone()).await.map_err(|_| Problem::in_progress(client_key))?;
        guard.complete();
        Ok(Reply::bytes(Status::CREATED, body))
    }
}
