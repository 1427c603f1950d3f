use std::sync::Arc;
use std::time::Duration;

use idem_scope::{scoped, ClaimGuard, Problem, ScopeError};
use quarry::kv::Vault;
use serde::Deserialize;
use wicket::auth::Caller;
use wicket::extract::RawBody;
use wicket::{Ctx, Reply, Status};

const LEASE: Duration = Duration::from_secs(300);

#[derive(Deserialize)]
struct CaptureIn {
    payment_id: String,
    amount_minor: u64,
}

#[derive(Deserialize)]
struct VoidIn {
    payment_id: String,
    reason: String,
}

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("missing Idempotency-Key")]
    MissingKey,
    #[error(transparent)]
    Scope(#[from] ScopeError),
    #[error(transparent)]
    Store(#[from] quarry::Error),
    #[error(transparent)]
    Decode(#[from] ciborium::de::Error<std::io::Error>),
    #[error(transparent)]
    Psp(#[from] psp::Error),
}

pub struct Payments {
    vault: Arc<Vault>,
    psp: psp::Client,
}

impl Payments {
    pub async fn capture(&self, ctx: &Ctx, caller: &Caller, RawBody(raw): RawBody) -> Result<Reply, AppError> {
        let key = ctx.header("Idempotency-Key").ok_or(AppError::MissingKey)?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "payments.capture", key)?;
        if !self.vault.claim(sk.storage_key(), LEASE).await? {
            return Ok(Reply::problem(Problem::in_progress(key)));
        }
        let input: CaptureIn = ciborium::from_reader(&raw[..])?;
        let receipt = self.psp.capture(&input.payment_id, input.amount_minor).await?;
        self.vault.complete(sk.storage_key(), receipt.to_bytes()).await?;
        Ok(Reply::bytes(Status::OK, receipt.to_bytes()))
    }

    pub async fn void(&self, ctx: &Ctx, caller: &Caller, RawBody(raw): RawBody) -> Result<Reply, AppError> {
        let key = ctx.header("Idempotency-Key").ok_or(AppError::MissingKey)?;
        let sk = scoped(&caller.tenant_id, &caller.user_id, "payments.void", key)?;
        if !self.vault.claim(sk.storage_key(), LEASE).await? {
            return Ok(Reply::problem(Problem::in_progress(key)));
        }
        let vault = self.vault.clone();
        let release_key = sk.storage_key().to_owned();
        let guard = ClaimGuard::new(move || {
            tokio::spawn(async move {
                let _ = vault.release(&release_key).await;
            });
        });
        let input: VoidIn = ciborium::from_reader(&raw[..])?;
        let receipt = self.psp.void(&input.payment_id, &input.reason).await?;
        self.vault.complete(sk.storage_key(), receipt.to_bytes()).await?;
        guard.complete();
        Ok(Reply::bytes(Status::OK, receipt.to_bytes()))
    }
}
