use anyhow::{ensure, Context as _};
use idem_scope::{scoped, IdempotencyKey, ScopedKey};

#[derive(Debug, thiserror::Error)]
#[error("idempotency repo: {0}")]
pub struct RepoError(String);

pub trait IdemRepo {
    fn mark_in_progress(&self, key: &ScopedKey) -> Result<bool, RepoError>;
    fn mark_completed(&self, key: &ScopedKey, body: &[u8]) -> Result<(), RepoError>;
    fn remove(&self, key: &ScopedKey) -> Result<(), RepoError>;
}

pub struct Ctx {
    pub tenant_id: String,
    pub user_id: String,
}

pub struct PayoutRequest {
    pub amount_minor: i64,
    pub iban: String,
}

pub struct PayoutService<R, L> {
    repo: R,
    ledger: L,
    rails: sepa::Rails,
}

impl<R: IdemRepo, L: ledger::Balances> PayoutService<R, L> {
    pub fn create(&self, ctx: &Ctx, key: &IdempotencyKey, req: PayoutRequest) -> anyhow::Result<Vec<u8>> {
        let sk = scoped(&ctx.tenant_id, &ctx.user_id, "payouts.create", key.as_str())?;
        let fresh = self.repo.mark_in_progress(&sk)?;
        ensure!(fresh, "409 payout with this key in progress");

        let balance = self.ledger.balance(&ctx.tenant_id).context("balance lookup")?;
        ensure!(balance >= req.amount_minor, "422 insufficient funds");
        let payout = self.rails.send(&ctx.tenant_id, &req.iban, req.amount_minor)?;
        let body = serde_json::to_vec(&payout)?;
        self.repo.mark_completed(&sk, &body)?;
        Ok(body)
    }

    pub fn create_instant(&self, ctx: &Ctx, key: &IdempotencyKey, req: PayoutRequest) -> anyhow::Result<Vec<u8>> {
        let sk = scoped(&ctx.tenant_id, &ctx.user_id, "payouts.create", key.as_str())?;
        let balance = self.ledger.balance(&ctx.tenant_id).context("balance lookup")?;
        ensure!(balance >= req.amount_minor, "422 insufficient funds");

        let fresh = self.repo.mark_in_progress(&sk)?;
        ensure!(fresh, "409 payout with this key in progress");
        let payout = self
            .rails
            .send(&ctx.tenant_id, &req.iban, req.amount_minor)
            .map_err(|e| {
                let _ = self.repo.remove(&sk);
                e
            })?;
        let body = serde_json::to_vec(&payout).unwrap_or_default();
        self.repo.mark_completed(&sk, &body)?;
        Ok(body)
    }
}
